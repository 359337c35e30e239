// Sharing: a scenario in the URL fragment. The page and `lev share` use exactly these.
export {
  compactScenario,
  decodeFragment,
  encodeScenario,
  isLongLink,
  scenarioUrl,
  LONG_LINK_CHARS,
  MAX_ADDRESS_CHARS,
  MAX_INFLATED_BYTES,
  MAX_LINK_CHARS,
  SHARE_FORMAT_VERSION,
  type DecodeResult,
} from './link.ts';
