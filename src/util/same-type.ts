/**
 * `true` when each of A and B is assignable to the other and both name the same keys (so an optional field added to
 * one side only is caught too). A format module states that its zod schema reads exactly the contract's type with
 * `Agrees<SameType<z.infer<typeof Schema>, Contract>>`: a field added to one and not the other fails the type check.
 */
export type SameType<A, B> = [A] extends [B]
  ? [B] extends [A]
    ? [keyof A] extends [keyof B]
      ? [keyof B] extends [keyof A]
        ? true
        : false
      : false
    : false
  : false;

/** Accepts only `true`: the compile-time assertion over a {@link SameType}. */
export type Agrees<T extends true> = T;
