import type { ExpectedCall } from '../contracts/suite.js';

/**
 * A concrete value from BFCL-style allowed values: a dict's values are themselves allowed-value lists, so each key
 * takes its first value ("" first = the key is omitted); lists are literal values, element by element.
 */
export function concreteValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(concreteValue);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, allowed] of Object.entries(value)) {
    const first = Array.isArray(allowed) ? allowed[0] : allowed;
    if (first === undefined || first === '') continue;
    out[key] = concreteValue(first);
  }
  return out;
}

/**
 * The allowed-value form of a concrete value, the inverse of {@link concreteValue}: every value of a dict wrapped in a
 * list of one allowed value, lists element by element, so `concreteValue(allowedForm(v))` is `v` again (unless a dict
 * holds an empty string, which that form reads as "omitted").
 */
export function allowedForm(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(allowedForm);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, [allowedForm(v)]]));
}

/** The call a possible answer describes: each parameter's first allowed value; "" first = omitted. */
export function answerArgs(call: ExpectedCall): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [param, allowed] of Object.entries(call.args ?? {})) {
    if (allowed.length === 0 || allowed[0] === '') continue;
    args[param] = concreteValue(allowed[0]);
  }
  return args;
}
