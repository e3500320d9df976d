/** Hostile replies of about 1 MB built from the markup formats' own tokens, for the robustness test and the parser bench. */
export const MARKUP_ADVERSARIAL: ReadonlyArray<readonly [name: string, text: string]> = [];
