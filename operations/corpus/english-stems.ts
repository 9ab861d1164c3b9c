// English words the Porter stemmer gets wrong, both ways: irregular verb forms it leaves apart from their verb, and
// words it joins to an unrelated one. analyse.ts reads a word through these tables before it stems it.

/** English irregular verb forms a Porter stemmer leaves apart from their verb ("spoken" and "speak"). */
export const IRREGULAR = new Map(
  (
    'spoke:speak spoken:speak wrote:write written:write led:lead ran:run built:build taught:teach won:win held:hold grew:grow grown:grow ' +
    'began:begin begun:begin brought:bring thought:think sold:sell met:meet took:take taken:take went:go gone:go chose:choose chosen:choose ' +
    'flew:fly flown:fly kept:keep left:leave paid:pay spent:spend stood:stand understood:understand ' +
    'sought:seek fought:fight caught:catch bought:buy found:find felt:feel heard:hear knew:know known:know shown:show showed:show ' +
    'told:tell saw:see seen:see rose:rise risen:rise drew:draw drawn:draw broke:break broken:break sent:send overseen:oversee oversaw:oversee ' +
    'undertook:undertake undertaken:undertake'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

/**
 * English words the Porter stemmer joins to an unrelated word (a stemmer override, as Lucene's StemmerOverrideFilter
 * keeps one): "hospitality" and "hospital" are both hospit, "experiment" is "experience"'s experi, "international"
 * and "internal" are intern. Each word here gets the token of its own family instead, and the words the stemmer
 * would have joined to it keep theirs. The American spellings of the British -isation words join them.
 */
export const STEM_OVERRIDE = new Map(
  (
    'hospitality:hospitality hospitable:hospitality ' +
    'experiment:experiment experiments:experiment experimental:experiment experimentation:experiment experimenting:experiment experimented:experiment ' +
    'international:international internationally:international internationalisation:international internationalization:international ' +
    'internal:internal internally:internal ' +
    'general:general generally:general generalist:general generalists:general generic:generic ' +
    'university:university universities:university ' +
    'evening:evening evenings:evening ' +
    'busy:busy ' +
    'communication:communic communications:communic communicate:communic communicated:communic communicating:communic communicator:communic ' +
    'custom:customis customs:customis customise:customis customised:customis customize:customis customized:customis ' +
    'organic:organic organically:organic organization:organis organizations:organis organizational:organis organize:organis organized:organis organizer:organis organizers:organis organizing:organis ' +
    'personal:personal personally:personal ' +
    'authority:authority authorities:authority ' +
    'accounting:accounting accountant:accounting accountants:accounting accountable:accountable accountability:accountable ' +
    'formation:formation formations:formation ' +
    'responsible:responsib responsibility:responsib responsibilities:responsib'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);
