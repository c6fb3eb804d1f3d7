/**
 * The registers (issue 31) as a user works them: a counterparty's card on /counterparties, the task form's
 * pickers (search-as-you-type, «Создать …» in place) and the place's small dialog, the driver's place guide.
 */
import type { Locator, Page } from 'playwright-core';

/** A register picker on the task form by its label: typing searches, an option by its text is picked. */
export class RegisterPicker {
  readonly input: Locator;
  constructor(private readonly page: Page, label: string) {
    this.input = page.getByRole('combobox', { name: label, exact: true });
  }

  async type(text: string): Promise<void> {
    await this.input.fill(text);
  }

  /** Picks the option whose text matches (a card found by name or ИНН, or «Создать … «text»…»). */
  async choose(option: string | RegExp): Promise<void> {
    await this.page.getByRole('option', { name: option }).click();
  }
}

/** The card dialog of a register (a counterparty, a place): its fields by label, its submit, its errors. */
export class CardDialog {
  readonly dialog: Locator;
  constructor(page: Page, title: string | RegExp) {
    this.dialog = page.getByRole('dialog', { name: title });
  }

  field(label: string): Locator {
    return this.dialog.getByLabel(label, { exact: true });
  }

  /** The text under a field (its error or its hint), found by the field's label. */
  async noteUnder(label: string): Promise<string> {
    const id = await this.field(label).getAttribute('aria-describedby');
    if (id) return (await this.dialog.locator(`[id="${id}"]`).textContent()) ?? '';
    return (await this.field(label).locator('xpath=following-sibling::span[1]').textContent()) ?? '';
  }

  async submit(label: string): Promise<void> {
    await this.dialog.getByRole('button', { name: label, exact: true }).click();
  }
}

/** A place's guide on the driver's task card (folded behind «Как доехать»): its address line, its note, its navigation links. */
export function placeGuide(card: Locator, label: 'Погрузка' | 'Выгрузка') {
  const guide = card.locator('.drv-guide').filter({ hasText: `${label}:` });
  return {
    /** Opens the card's «Как доехать». */
    open: () => card.locator('summary', { hasText: 'Как доехать' }).click(),
    guide,
    links: guide.getByRole('group'),
    link: (name: string) => guide.getByRole('link', { name, exact: true }),
  };
}
