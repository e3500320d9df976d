/** src/config/plain-yaml.ts stepping aside for every text (see register.mjs). */
export const NOT_PLAIN = Symbol('not plain YAML');

export function parsePlainYaml() {
  return NOT_PLAIN;
}
