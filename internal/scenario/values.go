package scenario

import (
	"encoding/json"
	"strings"

	"pgregory.net/rapid"
)

// Text of every kind the service strips, counts or refuses: words, Unicode,
// whitespace around (a heredoc's newline, Unicode spaces, the separators
// Python strips and Go does not), whitespace alone, "", text near the
// length limits, a null character.
func textGen(maxLen int) *rapid.Generator[string] {
	// A null character, which the service refuses, is one text in ten.
	return rapid.OneOf(
		rapid.SampledFrom([]string{
			"GeoIP", "Page views", "Événements", "日本語の説明", "emoji 😀", "a\nb", "tab\tinside", "a\x00b",
		}),
		rapid.SampledFrom([]string{"GeoIP", "Page views", "Événements"}),
		rapid.Custom(func(t *rapid.T) string {
			word := rapid.SampledFrom([]string{"GeoIP", "Événements", "😀", "x"}).Draw(t, "word")
			return spaceGen.Draw(t, "before") + word + spaceGen.Draw(t, "after")
		}),
		rapid.Custom(func(t *rapid.T) string { return spaceGen.Draw(t, "only") }),
		rapid.Custom(func(t *rapid.T) string {
			// Near the limit, counted in characters: é is two bytes.
			n := rapid.IntRange(maxLen-1, maxLen+1).Draw(t, "length")
			r := rapid.SampledFrom([]string{"é", "a"}).Draw(t, "char")
			return strings.Repeat(r, n) + spaceGen.Draw(t, "trailing")
		}),
	)
}

// spaceGen is whitespace as Python's str.strip() removes it, or none.
var spaceGen = rapid.SampledFrom([]string{
	"", "", " ", "\n", "  \n", "\t", "\u3000", "\u00a0", "\x1c", "\r\n", " \u2028 ",
})

// Number literals of every size and precision, as JSON writes them: the
// service keeps integers exact and reads the others as doubles.
var numberGen = rapid.SampledFrom([]string{
	"0", "1", "-7", "42", "2147483648", "9007199254740993", "123456789012345678901234567890",
	"0.1", "2.50", "-0.0", "1.0", "1E2", "1e-7", "1e300", "1.7976931348623157e308",
	"0.3333333333333333333333333333333333333333", "3.141592653589793238462643383279",
})

// jsonValueGen is any JSON value, nested up to depth levels.
func jsonValueGen(depth int) *rapid.Generator[any] {
	scalars := []*rapid.Generator[any]{
		rapid.Just[any](nil),
		rapid.Map(rapid.Bool(), func(b bool) any { return b }),
		rapid.Map(numberGen, func(s string) any { return json.Number(s) }),
		rapid.Map(rapid.OneOf(textGen(20), rapid.SampledFrom([]string{"", "${not_interpolated}", `"quoted" \ back`})),
			func(s string) any { return strings.ReplaceAll(s, "\x00", "") }),
	}
	if depth <= 0 {
		return rapid.OneOf(scalars...)
	}
	return rapid.OneOf(append(scalars,
		rapid.Map(rapid.SliceOfN(jsonValueGen(depth-1), 0, 3), func(l []any) any { return l }),
		rapid.Map(rapid.MapOfN(rapid.SampledFrom([]string{"a", "b", "key with space", "ünï"}), jsonValueGen(depth-1), 0, 3),
			func(m map[string]any) any { return m }),
	)...)
}

// jsonText writes a value built from json.Number, strings, bools, nil,
// []any and map[string]any; number literals are kept as generated.
func jsonText(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // generated values always encode
	}
	return strings.TrimSuffix(b.String(), "\n")
}
