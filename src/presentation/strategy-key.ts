/**
 * A strategy's label, its one key everywhere (run log, plan keys, cassette slots, reports, baseline): the renderer's
 * label (`full-details(noFences=true)`, or the entry's own `label`), then `@` and the variant's name when the strategy
 * runs on a catalog variant (`native-functions@crowded[distractors.count=25]`). The catalog unchanged adds nothing,
 * so a config without variants keeps the labels, and the baselines, it always had.
 */
export function strategyLabel(rendererLabel: string, variantName: string | undefined): string {
  return variantName === undefined ? rendererLabel : `${rendererLabel}@${variantName}`;
}
