import { describeRandomSourceContract } from "../../contract-tests/random-source.contract.ts";
import { CryptoRandomSource } from "./crypto-random-source.ts";

describeRandomSourceContract("CryptoRandomSource", () => new CryptoRandomSource());
