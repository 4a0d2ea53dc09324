-- Data that reads in Nepali (issue 50, docs/catalogue.md "Names in Nepali"): sports and amenities
-- carry their Nepali name; a venue may carry its name and address in Nepali, set by its owner.
ALTER TABLE sports ADD COLUMN name_ne text;
ALTER TABLE amenities ADD COLUMN name_ne text;
ALTER TABLE venues ADD COLUMN name_ne text;
ALTER TABLE venues ADD COLUMN address_ne text;

UPDATE sports SET name_ne = v.name_ne
FROM (VALUES
  ('futsal', 'फुटसल'), ('football', 'फुटबल'), ('cricket', 'क्रिकेट'), ('basketball', 'बास्केटबल'),
  ('badminton', 'ब्याडमिन्टन'), ('table_tennis', 'टेबल टेनिस'), ('volleyball', 'भलिबल'), ('tennis', 'टेनिस')
) AS v(key, name_ne)
WHERE sports.key = v.key;

UPDATE amenities SET name_ne = v.name_ne
FROM (VALUES
  ('Parking', 'पार्किङ'), ('Changing Room', 'लुगा फेर्ने कोठा'), ('Shower', 'नुहाउने ठाउँ'),
  ('Drinking Water', 'खानेपानी'), ('Cafeteria', 'क्यान्टिन'), ('Floodlights', 'फ्लडलाइट'),
  ('First Aid', 'प्राथमिक उपचार'), ('Wi-Fi', 'वाइफाइ')
) AS v(name, name_ne)
WHERE amenities.name = v.name;

-- Searching in Devanagari: the query is transliterated to Latin (src/lib/transliterate.ts) and
-- compared by its consonant skeleton, so "बानेश्वर" (bāneśvara) meets "Baneshwor". The skeleton of
-- Latin text: lower case; v and w as b, f as p, z as j, q as k; everything but a-z and 0-9 dropped,
-- then the vowels and h; a repeated letter once. transliterate.ts's latinSkeleton is the same
-- function for the query (a test compares them).
CREATE FUNCTION latin_skeleton(t text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN regexp_replace(
    regexp_replace(translate(lower(t), 'vwfzq', 'bbpjk'), '[^a-z0-9]|[aeiouh]', '', 'g'),
    '(.)\1+', '\1', 'g');

-- One column per venue, kept by PostgreSQL: the skeletons of name, address and city, apart.
ALTER TABLE venues ADD COLUMN search_skeleton text GENERATED ALWAYS AS (
  latin_skeleton(name) || ' ' || latin_skeleton(address) || ' ' || latin_skeleton(city)
) STORED;
