/** The driver's quantity fields use the app's one decimal parser (src/ui/decimal.ts). */
export * from '../../ui/decimal.ts';
