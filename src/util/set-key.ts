/**
 * Sets `key` on a plain object as an own, enumerable property, whatever its name. `obj[key] = value` with the key
 * `__proto__` sets the prototype instead and the key vanishes (from the arguments a grader checks, from JSON.stringify);
 * a model may well write an argument so named, and a schema may declare it.
 */
export function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else obj[key] = value;
}
