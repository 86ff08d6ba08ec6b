import type { BotIntent } from './schemas/routing-rules.ts';

/**
 * The chat bots' intent recogniser (§3 intents GREETING, GOODBYE, HELP, BOT_CONFUSED, ESCALATE_TO_AGENT) for Russian
 * and English. A small rule model, pure and shared by the server runtime and the editor's simulator:
 *
 * 1. normalisation: lower case, ё → е, punctuation and emoji to spaces, letters repeated 3+ times squeezed to one
 *    ("heyyy" → "hey", "привееет" → "привет"); a message of question marks only is kept as the token "?";
 * 2. a light stemmer: a token matches a lexicon stem when it starts with it (Russian inflections: "помогите",
 *    "помощь" ← "помо"/"помощ"; "оператора" ← "оператор");
 * 3. rules: single stems and phrases (all stems in order, gaps allowed) each carry a score; an intent's score is the
 *    sum of its matched rules; the best intent wins when its score reaches THRESHOLD. Long messages need more: a
 *    greeting buried in a ten-word question is not a greeting, so single-word cues weigh less as the text grows.
 *
 * It was tuned on the rules' own lexicon only; contracts/src/fixtures/bot-intents-heldout.ts holds phrasings written
 * before it, on which the test reports its accuracy.
 */
type Rule = { intent: BotIntent; stems: string[]; score: number };

const r = (intent: BotIntent, score: number, ...phrases: string[]): Rule[] =>
  phrases.map((p) => ({ intent, stems: p.split(' '), score }));

const RULES: Rule[] = [
  // GREETING
  ...r('GREETING', 3, 'hi', 'hello', 'hey', 'hallo', 'howdy', 'greeting', 'hiya', 'yo'),
  ...r('GREETING', 3, 'good morning', 'good afternoon', 'good evening', 'good day'),
  ...r(
    'GREETING',
    3,
    'привет',
    'здравств',
    'здраст',
    'здоров',
    'хай',
    'салют',
    'добр утр',
    'добр ден',
    'добр вечер',
  ),
  ...r('GREETING', 3, 'доброго дня', 'доброе утро', 'добрый день', 'добрый вечер'),
  // GOODBYE
  ...r('GOODBYE', 3, 'bye', 'goodbye', 'farewell', 'see you', 'see ya', 'cya', 'take care', 'later'),
  ...r('GOODBYE', 2, 'have a nice day', 'have a good day', 'good night'),
  ...r(
    'GOODBYE',
    3,
    'пока',
    'до свидан',
    'до встреч',
    'всего добр',
    'всего хорош',
    'прощай',
    'бывай',
    'пакед',
  ),
  ...r('GOODBYE', 3, 'до завтр', 'спокойной ночи', 'хорошего дня'),
  // HELP
  ...r('HELP', 3, 'help', 'assist', 'assistance', 'support', 'question', 'problem', 'issue'),
  ...r('HELP', 2, 'how do i', 'can you tell', 'i need'),
  ...r('HELP', 3, 'помог', 'помоч', 'помощ', 'подскаж', 'вопрос', 'проблем', 'помогит', 'выручит'),
  ...r('HELP', 2, 'нужн', 'как мне', 'не работает', 'not working'),
  // BOT_CONFUSED
  ...r(
    'BOT_CONFUSED',
    4,
    '?',
    'confus',
    'understand',
    'unclear',
    'what do you mean',
    'no sense',
    'make sense',
  ),
  ...r('BOT_CONFUSED', 4, 'not what i', 'wrong answer', 'huh', 'what', 'wtf'),
  ...r(
    'BOT_CONFUSED',
    4,
    'не понима',
    'не понял',
    'непонятн',
    'не понят',
    'не ясн',
    'что имеет в виду',
    'име в виду',
  ),
  ...r('BOT_CONFUSED', 4, 'не то', 'чего', 'что это', 'бред', 'не поня', 'непон'),
  // ESCALATE_TO_AGENT
  ...r(
    'ESCALATE_TO_AGENT',
    5,
    'human',
    'operator',
    'agent',
    'real person',
    'live person',
    'manager',
    'someone',
  ),
  ...r('ESCALATE_TO_AGENT', 5, 'representative', 'live chat', 'talk to', 'speak to', 'speak with', 'staff'),
  ...r('ESCALATE_TO_AGENT', 5, 'оператор', 'человек', 'менеджер', 'специалист', 'сотрудник', 'консультант'),
  ...r('ESCALATE_TO_AGENT', 5, 'живо', 'позовит', 'соедин', 'переключ', 'связ с', 'поговорит с'),
];

/** An intent wins at this score. */
const THRESHOLD = 3;

/** Lower case, ё → е, punctuation to spaces, letters repeated three times or more squeezed to one. */
export function normaliseIntentText(text: string): string {
  const lower = text.toLowerCase().replace(/ё/g, 'е');
  if (/^[\s?!.]*\?[\s?!.]*$/u.test(lower)) return '?';
  return lower
    .replace(/[’']/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/(\p{L})\1{2,}/gu, '$1')
    .trim()
    .replace(/\s+/g, ' ');
}

const tokenMatches = (token: string, stem: string): boolean =>
  stem.length <= 2 ? token === stem : token.startsWith(stem);

/** The phrase's stems appear in order in the tokens (other words may lie between, at most two). */
function phraseAt(tokens: string[], stems: string[]): boolean {
  for (let start = 0; start < tokens.length; start++) {
    if (!tokenMatches(tokens[start], stems[0])) continue;
    let i = start + 1;
    let ok = true;
    for (const stem of stems.slice(1)) {
      let found = false;
      for (let gap = 0; gap < 3 && i < tokens.length; gap++, i++) {
        if (tokenMatches(tokens[i], stem)) {
          found = true;
          i++;
          break;
        }
      }
      if (!found) {
        ok = false;
        break;
      }
    }
    if (ok) return true;
  }
  return false;
}

/** Each intent's score for the text (0 for those not seen). */
export function intentScores(text: string): Record<BotIntent, number> {
  const scores: Record<BotIntent, number> = {
    GREETING: 0,
    GOODBYE: 0,
    HELP: 0,
    BOT_CONFUSED: 0,
    ESCALATE_TO_AGENT: 0,
  };
  const norm = normaliseIntentText(text);
  if (!norm) return scores;
  const tokens = norm.split(' ');
  // Single-word cues weigh less in a long message (a greeting before a real question is not the point of it).
  const damp = tokens.length > 6 ? 0.5 : 1;
  for (const rule of RULES) {
    if (!phraseAt(tokens, rule.stems)) continue;
    scores[rule.intent] += rule.stems.length > 1 ? rule.score : rule.score * damp;
  }
  // A greeting or a goodbye that also asks for something is the request.
  return scores;
}

/** The intent the text expresses, or null when none reaches the threshold. Ties go to the order of §3 reversed
 * (escalation first: a customer asking for a person must not be held by a greeting). */
export function recogniseIntent(text: string): BotIntent | null {
  const scores = intentScores(text);
  const order: BotIntent[] = ['ESCALATE_TO_AGENT', 'BOT_CONFUSED', 'HELP', 'GOODBYE', 'GREETING'];
  let best: BotIntent | null = null;
  for (const intent of order)
    if (scores[intent] >= THRESHOLD && (!best || scores[intent] > scores[best])) best = intent;
  return best;
}
