-- The name key of 082, bounded and linear (issue 29): a client name from outside could be one word of 200,000
-- letters, and the doubled-letter collapse written as a back-reference regex ('(.)\1+') costs the square of a word's
-- length (8,000 letters: seconds), inside the ingest statement and the clients' name index. Now the key reads at
-- most the first 255 characters of a name (names are capped there where they enter, so this only guards old rows
-- and other writers), and doubled letters are collapsed by one pass over the word's characters. Keys of names of up
-- to 255 characters are what they were, so the merge suggestions see the same pairs.
create or replace function client_name_key(n text) returns text
language plpgsql immutable parallel safe as $$
declare
  s text := replace(lower(left(coalesce(n, ''), 255)), 'ё', 'е');
  w text;
  c text;
  prev text;
  folded text;
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
    w := substr(w, 1, 1) || regexp_replace(substr(w, 2), '[aeiouy]', '', 'g');
    folded := '';
    prev := '';
    foreach c in array regexp_split_to_array(w, '') loop
      if c <> prev then
        folded := folded || c;
      end if;
      prev := c;
    end loop;
    words := words || folded;
  end loop;
  k := array_to_string(array(select x from unnest(words) x order by x), ' ');
  return case when letters >= 3 then k end;
end
$$;
reindex index clients_name_key_idx;
