/**
 * The comparison, noise learning and scoring of the compatibility harness, with no CLI, HTTP or HTML in it: the
 * cutover code imports this module to judge shadow traffic the way `harness replay` judges a corpus.
 */
export { type CompareOptions, compareExchange, DEFAULT_HEADERS, type ExchangeComparison } from './compare-exchange.ts';
export { decodedAnswer } from './content-coding.ts';
export { Correspondence, type CorrespondenceSummary } from './correspondence.ts';
export {
  type Endpoint,
  type Exchange,
  endpointKey,
  endpointOf,
  type HeaderList,
  headerValue,
  pathAndQueryOf,
  pathOf,
} from './exchange.ts';
export {
  DIFFERENCE_CLASSES,
  type DifferenceClass,
  type FieldDifference,
  severityOf,
  type Verdict,
  verdictOf,
  worstClass,
} from './field-difference.ts';
export { type IgnoreRule, IgnoreRules, IgnoreRulesError, rulesApplied, ruleText } from './ignore-rules.ts';
export { formatPath, generalizePath } from './json-path.ts';
export { type EndpointNoise, learnNoise, type NoiseField, NoiseModel, PairingError } from './noise.ts';
export {
  type DifferenceSummary,
  type EndpointSummary,
  type ExchangeAnswer,
  type ExchangeOutcome,
  type ForgivenSummary,
  type KeptExchange,
  type RuleForgiveness,
  type RunSummary,
  Scoreboard,
  type ScoreboardOptions,
  score,
} from './score.ts';
