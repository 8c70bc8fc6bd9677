/** Expected failures are values. `E` is a plain object tagged by a snake_case `code`. */
export type Ok<T> = { readonly ok: true; readonly value: T };
export type Err<E> = { readonly ok: false; readonly error: E };
export type Result<T, E> = Ok<T> | Err<E>;

export interface TypedError<C extends string = string> {
  readonly code: C;
  readonly message: string;
}

export const ok = <T>(value: T): Ok<T> => ({ ok: true, value });
export const err = <E>(error: E): Err<E> => ({ ok: false, error });

export function typedError<C extends string>(code: C, message: string): TypedError<C> {
  return { code, message };
}
