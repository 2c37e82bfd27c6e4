package scenario

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// Upgrade changes a plugin as an upgrade does. A plan of every workspace
// after it is empty for the resources that had converged: what the plugin
// shows is the service's to change; only plugin settings the new schema
// puts on the other side (secret or not) are refused.
func (m *Machine) Upgrade(t *rapid.T) {
	p := rapid.SampledFrom(m.env.Catalog.Plugins).Draw(t, "plugin")
	wasSecret := m.env.Catalog.SecretKeys(p.ID)
	next := upgradeGen(p).Draw(t, "upgrade")
	if err := m.env.Local.SetPlugin(next); err != nil {
		m.fail(t, "upgrading plugin %d: %v", p.ID, err)
	}
	i := slices.IndexFunc(m.env.Catalog.Plugins, func(q localapi.Plugin) bool { return q.ID == p.ID })
	m.env.Catalog.Plugins[i] = next
	m.step("upgrade plugin %d from %s to %s", p.ID, pluginJSON(p), pluginJSON(next))
	stats.Upgrades.Add(1)
	for _, ws := range m.workspaces {
		w := m.plan(t, ws, Full)
		for i, pl := range w.plans {
			s := ws.slots[i]
			if pl == nil || !s.converged {
				continue
			}
			if acctest.HasError(pl.Diagnostics) && settingsPolicy(pl.Diagnostics) {
				s.converged = false
				continue
			}
			if pl.Action() == "update" && (ownTextRevealed(pl, s.config, p) || secretsRevealed(pl, wasSecret, m.env.Catalog.SecretKeys(p.ID))) {
				s.converged = false
				continue
			}
			if pl.Action() != "noop" || acctest.HasError(pl.Diagnostics) {
				m.fail(t, "after plugin %d's upgrade, %s plans %s%s%s", p.ID, ws.address(s), pl.Action(),
					acctest.DiagnosticsText(pl.Diagnostics), planDiff(pl))
			}
		}
		for _, s := range ws.slots {
			if plugin, ok := intAttr(s.inst.Attrs()["plugin"]); ok && plugin == p.ID {
				s.drift = true // what the service shows of it changed
			}
		}
	}
}

// pluginJSON renders a plugin's name, description and schema, for the
// steps.
func pluginJSON(p localapi.Plugin) string {
	b, err := json.Marshal(struct {
		Name         *string               `json:"name"`
		Description  *string               `json:"description"`
		ConfigSchema localapi.ConfigSchema `json:"config_schema"`
	}{p.Name, p.Description, p.ConfigSchema})
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// secretsRevealed reports whether a plan after an upgrade only changes
// settings that were secret before it and are not now: the service shows
// their values from then on, and the plan removes (or keeps) them as it
// does any setting set outside the configuration.
func secretsRevealed(pl *acctest.Plan, was, now []string) bool {
	sh := ShownOf("", pl)
	for attr := range sh.After {
		if attr != "config" && attr != "updated_at" && !sh.Same(attr) {
			return false
		}
	}
	before, after := Settings(sh.Before, "config"), Settings(sh.After, "config")
	changed := false
	for k := range union(before, after) {
		b, inB := before[k]
		a, inA := after[k]
		if inB == inA && (!inB || python.Equal(a, b)) {
			continue
		}
		if !slices.Contains(was, k) || slices.Contains(now, k) {
			return false
		}
		changed = true
	}
	return changed
}

// planDiff renders the attributes a plan changes, prior and planned.
func planDiff(p *acctest.Plan) string {
	prior, planned := p.Prior.Attrs(), map[string]tftypes.Value{}
	if p.Planned.Type() != nil && !p.Planned.IsNull() {
		_ = p.Planned.As(&planned)
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(planned)) {
		if old, ok := prior[name]; !ok || !old.Equal(planned[name]) {
			fmt.Fprintf(&b, "\n  %s: %v -> %v", name, prior[name], planned[name])
		}
	}
	return b.String()
}

// ownTextRevealed reports whether a plan after plugin p's upgrade only
// changes a name or description that the service showed the same for the
// config's own text and the plugin's. The service shows `name or
// plugin.name`, so until the plugin changes the provider cannot tell them
// apart: own text equal to the plugin's, where the configuration leaves it
// out or sets it blank, is handed back to the plugin; configured text equal
// to the plugin's once both are stripped (the service strips what it
// stores), which nothing sent since the service showed it, is sent.
// Either way the plan restores what the configuration says.
func ownTextRevealed(pl *acctest.Plan, cfg *Config, p localapi.Plugin) bool {
	prior := pl.Prior.Attrs()
	planned := map[string]tftypes.Value{}
	if cfg == nil || prior == nil || pl.Planned.As(&planned) != nil {
		return false
	}
	for name, v := range planned {
		if v.Equal(prior[name]) || name == "updated_at" {
			continue
		}
		var was string
		_ = prior[name].As(&was)
		switch {
		case name == "name" && handsBack(cfg.Name, v) && p.Name != nil && was == *p.Name,
			name == "name" && cfg.Name != nil && handsBack(cfg.Name, v) && p.Name != nil && python.Strip(*cfg.Name) == python.Strip(*p.Name):
		case name == "description" && handsBack(cfg.Description, v) && p.Description != nil && was == *p.Description,
			name == "description" && cfg.Description != nil && handsBack(cfg.Description, v) && p.Description != nil &&
				python.Strip(*cfg.Description) == python.Strip(*p.Description):
		default:
			return false
		}
	}
	return true
}

// handsBack reports whether planned is what a configuration asks for once
// the plugin's text no longer stands for it: handed back to the plugin
// where the configuration leaves it out (planned unknown: sent as null) or
// sets it blank, or the configured text itself where that was the plugin's
// (the service showed it, so nothing was sent; now it must be).
func handsBack(configured *string, planned tftypes.Value) bool {
	if configured == nil {
		return !planned.IsKnown()
	}
	var s string
	return planned.IsKnown() && planned.As(&s) == nil && s == *configured
}
