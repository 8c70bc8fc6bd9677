import { describeDnsResolverContract } from "../../contract-tests/dns-resolver.contract.ts";
import { SystemDnsResolver } from "./system-dns-resolver.ts";

// Only names the hosts file answers: the suite never makes the system resolver query a DNS server.
describeDnsResolverContract("SystemDnsResolver", () => ({
  resolver: new SystemDnsResolver(),
  known: { hostname: "localhost", addresses: ["127.0.0.1", "::1"] },
}));
