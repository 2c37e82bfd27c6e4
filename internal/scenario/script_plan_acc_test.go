//go:build unix

package scenario

import (
	"encoding/json"
	"math/big"
	"strings"
)

// What `terraform show -json` says of a saved plan, as Shown.

// show reads the saved plan as terraform show -json renders it.
func (r *scriptRun) show(step ScriptStep) []Shown {
	out := r.terraform("show", "-json", "tfplan")
	var plan struct {
		ResourceChanges []struct {
			Mode, Name string
			Change     struct {
				Actions      []string       `json:"actions"`
				Before       map[string]any `json:"before"`
				After        map[string]any `json:"after"`
				AfterUnknown map[string]any `json:"after_unknown"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	if err := dec.Decode(&plan); err != nil {
		r.fail("reading the plan: %v\n%s", err, out)
	}
	var shown []Shown
	for _, rc := range plan.ResourceChanges {
		if rc.Mode != "managed" {
			continue
		}
		s := Shown{Name: step.Workspace + "." + rc.Name, Action: actionOf(rc.Change.Actions),
			Before: jsonValues(rc.Change.Before, nil), After: jsonValues(rc.Change.After, rc.Change.AfterUnknown)}
		if f, ok := s.Before["id"].(*big.Float); ok {
			s.ID, _ = f.Int64()
		}
		shown = append(shown, s)
	}
	return shown
}

// actionOf names a resource change's actions as Plan.Action does.
func actionOf(actions []string) string {
	switch strings.Join(actions, ",") {
	case "no-op", "read":
		return "noop"
	case "delete,create", "create,delete":
		return "replace"
	}
	return strings.Join(actions, ",")
}

// jsonValues turns a change's before or after into Shown's values.
func jsonValues(values, unknown map[string]any) map[string]any {
	if values == nil && unknown == nil {
		return nil
	}
	out := map[string]any{}
	for name, v := range values {
		switch x := v.(type) {
		case json.Number:
			f, _, err := big.ParseFloat(x.String(), 10, 512, big.ToNearestEven)
			if err == nil {
				out[name] = f
			}
		case string, bool, nil:
			out[name] = x
		default:
			out[name] = Unknown{}
		}
	}
	for name, u := range unknown {
		if u == true {
			out[name] = Unknown{}
		}
	}
	return out
}
