import { describePageExtractorContract } from "../../contract-tests/page-extractor.contract.ts";
import { TagStrippingPageExtractor } from "./tag-stripping-page-extractor.ts";

describePageExtractorContract("TagStrippingPageExtractor", () => new TagStrippingPageExtractor());
