/**
 * The waybills (ЭТрН) of the driver's trips on a task (issue 33 §1 «The driver's part», §3): each trip's state in
 * Russian and, once the operator accepted it, its УИД ТрН and the QR code he shows on the road. The facts come with
 * GET /tasks/assigned/ (`waybills`), which the engine's GET cache keeps: seen once, they are there offline.
 */
import { lazy, Suspense } from 'react';
import { driverWaybillLine, type DriverWaybill } from '../../../contract/waybill.ts';

const QrCode = lazy(() => import('./QrCode.tsx'));

export function TripWaybills({ waybills }: { waybills: readonly DriverWaybill[] }) {
  if (waybills.length === 0) return null;
  return (
    <section className="drv-waybills" aria-label="Накладные рейсов">
      {waybills.map((w, index) => (
        <div key={w.report_id} className={`drv-waybill drv-waybill--${w.state}`}>
          <p className="drv-waybill__state">
            {waybills.length > 1 ? `Рейс ${index + 1}. ` : ''}
            {driverWaybillLine(w.state)}
          </p>
          {w.uid ? (
            <p className="drv-waybill__uid">
              УИД ТрН: <span className="drv-waybill__uid-value">{w.uid}</span>
            </p>
          ) : null}
          {w.qr ? (
            <Suspense fallback={<p className="drv-field__hint">QR-код загружается...</p>}>
              <QrCode text={w.qr} label={`QR-код накладной ${w.uid ?? ''}`.trim()} />
            </Suspense>
          ) : null}
        </div>
      ))}
    </section>
  );
}
