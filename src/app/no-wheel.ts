/**
 * A mouse wheel over a focused number input would silently change the quantity being typed
 * (docs/product.md §2). One listener on the document; it must be non-passive to cancel the wheel.
 */
export function blockNumberInputWheel(doc: Document = document): () => void {
  const onWheel = (event: WheelEvent): void => {
    const active = doc.activeElement;
    if (active instanceof HTMLInputElement && active.type === 'number' && event.target === active) {
      event.preventDefault();
    }
  };
  doc.addEventListener('wheel', onWheel, { passive: false });
  return () => doc.removeEventListener('wheel', onWheel);
}
