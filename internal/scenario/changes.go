package scenario

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// The service changes only as the plan says: ChangesAsPlanned compares
// the project before an apply with the project after it, config by config
// and field by field, against what the apply's plan showed.

// Applied is what one apply did: its plans (those of the resources it
// planned), the resources whose apply succeeded (Done, by name), whether it
// refreshed, and the configs of killed runs of the same workspace that its
// creates adopted with a warning (each config a create took must be one of
// those). Without a refresh, the plan knows a config's secret keys as the
// state last read them (StaleSecrets, by config), which an upgrade of the
// plugin may have changed since.
type Applied struct {
	Shown        []Shown
	Done         map[string]bool
	Refresh      bool
	Adopted      map[int64]bool
	StaleSecrets map[int64][]string
}

// ChangesAsPlanned lists where after differs from before other than as
// the apply's plan showed:
//
//   - A config no plan names (another workspace's, one left out of a
//     targeted apply, one left over), or one planned as unchanged, is
//     unchanged field by field (updated_at aside).
//   - A config planned for an update changes only where the plan shows a
//     change: enabled, order, name, description, filters, each key of the
//     settings (a key set on the service and in neither the plan's before
//     nor its after must stay), and the secret keys only when
//     secret_config_wo_version changes. Without a refresh the plan's
//     before may be stale: a value it shows unchanged may also become the
//     planned one (what the configuration says), never anything else.
//   - A config planned for deletion or replacement is only deleted
//     (deleted, and so disabled).
//   - A new config answers a planned create or replacement of its plugin,
//     and a config that existed before became a create's only if it was a
//     killed run's orphan the apply adopted.
//   - Each create or replacement that succeeded left a new config of its
//     plugin, or adopted one with a warning: a create that took a config
//     silently (one no resource held) would pass every other check.
//
// Secret keys are those of the plugin's schema in the catalog (and,
// without a refresh, those the state last read).
func ChangesAsPlanned(cat *Catalog, a Applied, before, after Snapshot) []string {
	var problems []string
	byID := map[int64]Shown{}
	creates, done := map[int64]int{}, map[int64]int{} // by plugin: planned, and succeeded
	for _, s := range a.Shown {
		if s.ID != 0 {
			byID[s.ID] = s
		}
		if s.Action == "create" || s.Action == "replace" {
			if p, ok := s.After["plugin"].(*big.Float); ok {
				n, _ := p.Int64()
				creates[n]++
				if a.Done[s.Name] {
					done[n]++
				}
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(before)) {
		was, now := before[id], after[id]
		if _, ok := after[id]; !ok {
			problems = append(problems, fmt.Sprintf("config %d is gone from the service", id))
			continue
		}
		s, planned := byID[id]
		switch {
		case a.Adopted[id]:
			// A killed run's orphan, which a create now holds as planned.
		case !planned || s.Action == "noop":
			problems = append(problems, differences(id, "no plan changes it", was, now, nil)...)
		case s.Action == "delete" || s.Action == "replace":
			gone := was
			if now.Deleted {
				gone.Deleted, gone.Enabled = true, false
			}
			problems = append(problems, differences(id, "the plan deletes it", gone, now, nil)...)
		default:
			view := &planView{secret: cat.SecretKeys(was.Plugin), shown: s, refresh: a.Refresh}
			if !a.Refresh {
				view.stale = a.StaleSecrets[id]
			}
			problems = append(problems, differences(id, "the plan of "+s.Name+" does not show it", was, now, view)...)
		}
	}
	made := map[int64]int{} // by plugin: new configs, and adopted ones
	for _, id := range slices.Sorted(maps.Keys(after)) {
		if _, ok := before[id]; ok {
			if a.Adopted[id] {
				made[after[id].Plugin]++
			}
			continue
		}
		p := after[id].Plugin
		made[p]++
		if creates[p] == 0 {
			problems = append(problems, fmt.Sprintf("config %d of plugin %d is new, but the plan creates no config of that plugin", id, p))
			continue
		}
		creates[p]--
	}
	for _, p := range slices.Sorted(maps.Keys(done)) {
		if made[p] < done[p] {
			problems = append(problems, fmt.Sprintf("%d creates of a config of plugin %d succeeded, but %d configs of it "+
				"are new or adopted with a warning: a create took a config that existed without saying so", done[p], p, made[p]))
		}
	}
	return problems
}

// planView is what a plan shows of an updated config, for differences:
// its secret keys (and, without a refresh, those the state last read as
// secret), what it shows, and whether it refreshed.
type planView struct {
	secret, stale []string
	shown         Shown
	refresh       bool
}

// allows reports whether attribute attr may have changed from was to now:
// the plan shows a change of it, or, without a refresh, now is what the
// plan says (eq compares the stored value with the planned one).
func (v *planView) allows(attr string, eq func(planned any) bool) bool {
	if v == nil {
		return false
	}
	if !v.shown.Same(attr) {
		return true
	}
	return !v.refresh && eq(v.shown.After[attr])
}

// differences lists the fields in which now differs from was that the plan
// (nil: none) does not allow. updated_at is the service's.
func differences(id int64, why string, was, now localapi.StoredRecord, plan *planView) []string {
	var out []string
	diff := func(field string, a, b any) {
		out = append(out, fmt.Sprintf("config %d: %s changed from %s to %s, but %s", id, field, show(a), show(b), why))
	}
	if was.Plugin != now.Plugin {
		diff("plugin", was.Plugin, now.Plugin)
	}
	if was.Deleted != now.Deleted {
		diff("deleted", was.Deleted, now.Deleted)
	}
	if was.CreatedAt != now.CreatedAt {
		diff("created_at", was.CreatedAt, now.CreatedAt)
	}
	if was.Enabled != now.Enabled && !plan.allows("enabled", func(p any) bool { return p == now.Enabled }) {
		diff("enabled", was.Enabled, now.Enabled)
	}
	if was.Order != now.Order && !plan.allows("order", func(p any) bool {
		f, ok := p.(*big.Float)
		return ok && f.Cmp(new(big.Float).SetInt64(now.Order)) == 0
	}) {
		diff("order", was.Order, now.Order)
	}
	never := func(any) bool { return false }
	if !sameText(was.Name, now.Name) && !plan.allows("name", never) {
		diff("name", was.Name, now.Name)
	}
	if !sameText(was.Description, now.Description) && !plan.allows("description", never) {
		diff("description", was.Description, now.Description)
	}
	if !sameJSON(was.Filters, now.Filters) && !plan.allows("filters", never) {
		diff("filters", string(was.Filters), string(now.Filters))
	}
	out = append(out, settingsDifferences(id, why, was, now, plan)...)
	return out
}

// settingsDifferences compares the settings key by key: the non-secret
// ones against the plan's config, the secret ones against
// secret_config_wo_version.
func settingsDifferences(id int64, why string, was, now localapi.StoredRecord, plan *planView) []string {
	var out []string
	before, after := object(was.Config), object(now.Config)
	if plan == nil {
		plan = &planView{}
	}
	shownBefore, shownAfter := Settings(plan.shown.Before, "config"), Settings(plan.shown.After, "config")
	_, unknown := plan.shown.After["config"].(Unknown)
	keys := slices.Sorted(maps.Keys(union(before, after)))
	for _, k := range keys {
		b, inB := before[k]
		n, inN := after[k]
		secret, stale := slices.Contains(plan.secret, k), slices.Contains(plan.stale, k)
		// A setting that is null or "" is none: the service keeps a secret
		// sent as null and clears one sent as "", and its UI saves an
		// empty field as "" (the provider's rule too).
		inB, inN = inB && !noSetting(b), inN && !noSetting(n)
		if inB == inN && (!inB || python.Equal(b, n)) {
			continue
		}
		pb, inPB := shownBefore[k]
		pa, inPA := shownAfter[k]
		inPB, inPA = inPB && !noSetting(pb), inPA && !noSetting(pa)
		shownSame := inPB == inPA && (!inPB || python.Equal(pb, pa))
		asPlanned := inPA == inN && (!inPA || python.Equal(pa, n))
		// A secret changes with secret_config_wo_version; a setting as the
		// plan shows (without a refresh, or to what it says). A key the
		// stale state held secret may do either.
		newSecrets := plan.shown.After != nil && !plan.shown.Same("secret_config_wo_version")
		asSetting := plan.shown.After != nil && (unknown || !shownSame || !plan.refresh && asPlanned)
		allowed := (secret || stale) && newSecrets || !secret && asSetting
		if !allowed {
			out = append(out, fmt.Sprintf("config %d: settings key %q changed from %s to %s, but %s", id, k,
				presence(b, inB), presence(n, inN), why))
		}
	}
	return out
}

// noSetting reports whether a setting's value stands for none: null or "".
func noSetting(v json.RawMessage) bool {
	return python.IsNull(v) || python.Equal(v, json.RawMessage(`""`))
}

func object(raw json.RawMessage) map[string]json.RawMessage {
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(raw, &obj)
	return obj
}

func union(a, b map[string]json.RawMessage) map[string]json.RawMessage {
	out := maps.Clone(a)
	if out == nil {
		out = map[string]json.RawMessage{}
	}
	maps.Copy(out, b)
	return out
}

func presence(v json.RawMessage, ok bool) string {
	if !ok {
		return "(absent)"
	}
	return string(v)
}

func sameText(a, b *string) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

func sameJSON(a, b json.RawMessage) bool {
	if python.IsNull(a) || python.IsNull(b) {
		return python.IsNull(a) == python.IsNull(b)
	}
	return python.Equal(a, b)
}

func show(v any) string {
	switch x := v.(type) {
	case *string:
		if x == nil {
			return "null"
		}
		return fmt.Sprintf("%q", *x)
	case string:
		if x == "" {
			return "null"
		}
		return x
	}
	return fmt.Sprint(v)
}
