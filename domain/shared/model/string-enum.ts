import { Type, type TUnsafe } from "typebox";

/** A string enum as `{type:"string", enum}`: the form every provider accepts (Google rejects anyOf of consts). */
export function stringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}
