import fc from "fast-check";
import { isIPv6 } from "node:net";
import { describe, expect, it } from "vitest";
import {
  formatIp,
  formatIpv4,
  formatIpv6,
  parseIpLiteral,
  parseIpv4Loose,
  parseIpv4Strict,
  parseIpv6,
  sameEndpoint,
} from "./ip-address.ts";

const text = (input: string) => {
  const ip = parseIpLiteral(input);
  return ip === undefined ? undefined : formatIp(ip);
};

describe("IPv4 in every spelling", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["0X7F.0.0.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.0.1", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["0x7f.0x0.0x0.0x1", "127.0.0.1"],
    ["0177.0x0.1", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["0x", "0.0.0.0"],
    ["00", "0.0.0.0"],
    ["4294967295", "255.255.255.255"],
    ["0xffffffff", "255.255.255.255"],
    ["10.0xffffff", "10.255.255.255"],
    ["169.254.43518", "169.254.169.254"],
    ["0251.0376.0251.0376", "169.254.169.254"],
  ])("%s → %s", (input, expected) => {
    expect(text(input)).toBe(expected);
  });

  it.each([
    "4294967296",
    "256.0.0.1",
    "1.2.3.4.5",
    "09.0.0.1",
    "08",
    "1..2",
    ".1.2.3",
    "0x1g",
    "1.2.3.-4",
    "",
    "1.2.3.4..",
    "127.0.0.1 ",
    "1e3",
  ])("rejects %j", (input) => {
    expect(parseIpv4Loose(input)).toBeUndefined();
  });

  it("agrees with the WHATWG URL parser on random spellings of random addresses", () => {
    const spell = fc.constantFrom("dec", "oct", "hex");
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(spell, { minLength: 4, maxLength: 4 }),
        (value, parts, radixes) => {
          const octets = formatIpv4(value).split(".").map(Number);
          const head = octets.slice(0, parts - 1);
          const tail = octets.slice(parts - 1).reduce((acc, o) => acc * 256 + o, 0);
          const numbers = [...head, tail];
          const spelled = numbers.map((n, i) => {
            const radix = radixes[i] ?? "dec";
            if (radix === "hex") return `0x${n.toString(16)}`;
            if (radix === "oct" && n > 0) return `0${n.toString(8)}`;
            return String(n);
          });
          const input = spelled.join(".");
          expect(text(input)).toBe(new URL(`http://${input}/`).hostname);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("strict dotted quads only inside IPv6", () => {
    expect(parseIpv4Strict("127.0.0.1")).toEqual({ family: 4, value: 0x7f000001 });
    expect(parseIpv4Strict("127.1")).toBeUndefined();
    expect(parseIpv4Strict("0177.0.0.1")).toBeUndefined();
  });
});

describe("IPv6", () => {
  it.each([
    ["::", "::"],
    ["::1", "::1"],
    ["[::1]", "::1"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["::ffff:127.0.0.1", "::ffff:7f00:1"],
    ["::ffff:7f00:1", "::ffff:7f00:1"],
    ["::127.0.0.1", "::7f00:1"],
    ["64:ff9b::10.0.0.1", "64:ff9b::a00:1"],
    ["2001:DB8::1", "2001:db8::1"],
    ["2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"],
    ["::2:3:4:5:6:7:8", "0:2:3:4:5:6:7:8"],
    ["1:0:0:2:0:0:0:3", "1:0:0:2::3"],
    ["2606:4700::1111", "2606:4700::1111"],
  ])("%s → %s", (input, expected) => {
    expect(text(input)).toBe(expected);
  });

  it.each([
    ":::",
    "1::2::3",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7",
    "12345::",
    "::g",
    "1.2.3.4::",
    "::1.2.3",
    "::0177.0.0.1",
    "1:2:3:4:5:6:7:8::",
    "[::1",
    "::1]",
  ])("rejects %j", (input) => {
    expect(parseIpv6(input)).toBeUndefined();
  });

  it("formats like the WHATWG serializer and round-trips, for random addresses", () => {
    const groups = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), {
      minLength: 8,
      maxLength: 8,
    });
    fc.assert(
      fc.property(groups, (gs) => {
        const value = gs.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
        const formatted = formatIpv6(value);
        expect(isIPv6(formatted)).toBe(true);
        expect(`[${formatted}]`).toBe(new URL(`http://[${gs.map((g) => g.toString(16)).join(":")}]/`).hostname);
        expect(parseIpv6(formatted)).toEqual({ family: 6, value });
      }),
      { numRuns: 500 },
    );
  });

  it("treats an IPv4-mapped socket address as the same endpoint as its IPv4", () => {
    const v4 = parseIpLiteral("127.0.0.1");
    const mapped = parseIpLiteral("::ffff:127.0.0.1");
    const other = parseIpLiteral("127.0.0.2");
    if (v4 === undefined || mapped === undefined || other === undefined) throw new Error("parse failed");
    expect(sameEndpoint(v4, mapped)).toBe(true);
    expect(sameEndpoint(mapped, v4)).toBe(true);
    expect(sameEndpoint(v4, other)).toBe(false);
  });
});
