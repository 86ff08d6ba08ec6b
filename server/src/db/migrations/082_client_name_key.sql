-- "Similar names" for contact-merge suggestions (§4 Contact merge; issue 14): a skeleton key of a client's name that
-- one person's spellings share. Lower case, ё as е, Cyrillic transliterated to Latin (so Иван Петров meets
-- Ivan Petrov), Latin variants folded (x -> ks, c -> k but not in ch, ph -> f, kh -> h, w -> v, q -> k, h after a vowel
-- dropped: Hannah meets Hanna), then per
-- word: a leading y/j dropped (Юлия/Julia/Yulia), the first letter kept and later vowels dropped (Aleksandr meets
-- Alexander), doubled letters collapsed; words sorted (Petrov Ivan meets Ivan Petrov); digit-only words (external
-- ids) ignored. Null when the words hold fewer than 3 letters, so short or id-like names suggest nothing.
create function client_name_key(n text) returns text
language plpgsql immutable parallel safe as $$
declare
  s text := replace(lower(coalesce(n, '')), 'ё', 'е');
  w text;
  words text[] := '{}';
  k text;
  letters int := 0;
begin
  s := replace(replace(replace(replace(replace(replace(replace(replace(replace(s,
         'щ', 'shch'), 'ж', 'zh'), 'х', 'kh'), 'ц', 'ts'), 'ч', 'ch'), 'ш', 'sh'), 'ю', 'yu'), 'я', 'ya'), 'й', 'y');
  s := translate(s, 'абвгдезиклмнопрстуфыэьъ', 'abvgdeziklmnoprstufye');
  s := replace(replace(s, 'x', 'ks'), 'ph', 'f');
  s := regexp_replace(s, 'c(?!h)', 'k', 'g');
  s := translate(replace(s, 'kh', 'h'), 'wq', 'vk');
  s := regexp_replace(s, '([aeiouy])h', '\1', 'g');
  s := regexp_replace(s, '[^a-z0-9]+', ' ', 'g');
  foreach w in array regexp_split_to_array(btrim(s), ' ') loop
    continue when w = '' or w ~ '^[0-9]+$';
    w := regexp_replace(w, '^[yj]+', '');
    continue when w = '';
    letters := letters + length(w);
    w := regexp_replace(substr(w, 1, 1) || regexp_replace(substr(w, 2), '[aeiouy]', '', 'g'), '(.)\1+', '\1', 'g');
    words := words || w;
  end loop;
  k := array_to_string(array(select x from unnest(words) x order by x), ' ');
  return case when letters >= 3 then k end;
end
$$;
create index clients_name_key_idx on clients (organisation_id, client_name_key(name));
