package scenario

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// Sample is a generated scenario to run through the terraform binary: a
// catalog, the provider's project, and the configurations of a workspace
// of two resources that the steps apply one after the other (a nil
// configuration leaves the resource out).
type Sample struct {
	Catalog *Catalog
	Current bool
	Kinds   []string
	Steps   [][]*Config
}

// SampleGen generates a Sample of steps configurations.
func SampleGen(steps int) *rapid.Generator[*Sample] {
	return rapid.Custom(func(t *rapid.T) *Sample {
		s := &Sample{
			Catalog: catalogGen.Draw(t, "catalog"),
			Current: rapid.Bool().Draw(t, "@current"),
			Kinds:   []string{rapid.SampledFrom(Kinds).Draw(t, "kind of r0"), rapid.SampledFrom(Kinds).Draw(t, "kind of r1")},
		}
		prior := make([]*Config, len(s.Kinds))
		for i := range steps {
			configs := make([]*Config, len(s.Kinds))
			for j, kind := range s.Kinds {
				if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("step %d leaves r%d out", i, j)) > 0 {
					configs[j] = AsJSONEncodeWrites(configGen(s.Catalog, kind, prior[j]).Draw(t, fmt.Sprintf("step %d r%d", i, j)))
				}
			}
			s.Steps = append(s.Steps, configs)
			prior = configs
		}
		return s
	})
}

// HCL renders step i's configuration: the provider block and the
// resources.
func (s *Sample) HCL(env *Env, i int) string {
	var b strings.Builder
	b.WriteString(env.ProviderHCL())
	for j, c := range s.Steps[i] {
		if c != nil {
			b.WriteString("\n" + c.HCL(fmt.Sprint("r", j)))
		}
	}
	return b.String()
}

// AsJSONEncodeWrites returns c with its JSON arguments as Terraform's
// jsonencode writes the values that HCL renders (c.HCL): HCL reads a number
// literal as a 512-bit float and jsonencode writes it in positional
// notation with the fewest digits that read back (1E2 becomes 100, 2.50
// 2.5, 1e20 an integer). The service sees that text, so the scenario's
// judgment of it must too.
func AsJSONEncodeWrites(c *Config) *Config {
	if c == nil {
		return nil
	}
	out := *c
	for _, p := range []**string{&out.Filters, &out.Settings, &out.Secret} {
		if *p != nil {
			text := jsonencodeText(**p)
			*p = &text
		}
	}
	return &out
}

func jsonencodeText(text string) string {
	v, err := python.Decode(text)
	if err != nil {
		return text
	}
	return jsonText(ctyNumbers(v))
}

// ctyNumbers rewrites number literals as cty writes them.
func ctyNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, _, err := big.ParseFloat(x.String(), 10, 512, big.ToNearestEven)
		if err != nil {
			return x
		}
		return json.Number(f.Text('f', -1))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = ctyNumbers(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = ctyNumbers(e)
		}
		return out
	}
	return v
}
