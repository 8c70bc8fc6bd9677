export declare const PI_PACKAGES: readonly string[];
export interface InstalledPi {
  readonly piDir: string;
  readonly name: string;
  readonly version: string;
  readonly cliPath: string;
  readonly engines: string | undefined;
}
export declare function describePi(piDir: string): InstalledPi;
export declare function piHostAliases(piDir: string): Record<string, string>;
