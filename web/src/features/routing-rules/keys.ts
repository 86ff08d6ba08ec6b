/** Query keys of routing rules: the organisation's rules in order. */
export const ruleKeys = { all: ['routing-rules'] as const };
