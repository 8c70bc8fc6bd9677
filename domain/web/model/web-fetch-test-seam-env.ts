/**
 * The two TEST SEAM variables of the child's web fetch (adapters/pi/child/web-fetch-test-seam.ts says what
 * they do); named here so the parent can pass them through a child's confined environment.
 */
export const WEB_FETCH_TEST_SEAM_ENV = "PI_FUSION_WEB_FETCH_TEST_SEAM";
export const WEB_FETCH_TEST_ADMIT_CIDR_ENV = "PI_FUSION_WEB_FETCH_TEST_ADMIT_CIDR";
