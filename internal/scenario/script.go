package scenario

import (
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// Script is a generated run of the terraform binary in one working
// directory: two workspaces of two resources each, sharing the project,
// and steps that apply a workspace's configuration (now and then the same
// as the other's, targeted, or without a refresh), kill such an apply at a
// request boundary and apply again at once, change a config on the
// service, or move the service from the version it starts at (Start, one
// that stores configs) to a later one (Move).
type Script struct {
	Catalog     *Catalog
	Current     bool
	Workspaces  []string
	Kinds       []string
	Steps       []ScriptStep
	Start, Move localapi.Version
}

// ScriptStep is one step of a Script.
type ScriptStep struct {
	Workspace string
	// Op is "apply", "kill", "change" or "version" (the move to Move).
	Op string
	// Configs are the workspace's resources for an apply (nil: left out).
	Configs []*Config
	Flags   Flags
	Kill    Kill
	// Resource is the resource a change is made to, Edit the change.
	Resource int
	Edit     ScriptEdit
}

// ScriptEdit is a change made on the service: a PATCH of fields, a
// setting edited as the UI does, or a soft delete.
type ScriptEdit struct {
	Fields  client.RecordInput
	Setting *SettingEdit
	Delete  bool
}

func (e ScriptEdit) String() string {
	switch {
	case e.Delete:
		return "deleted"
	case e.Setting != nil:
		return e.Setting.String()
	}
	return describeInput(e.Fields)
}

func (s ScriptStep) String() string {
	switch s.Op {
	case "change":
		return fmt.Sprintf("change %s.r%d on the service: %s", s.Workspace, s.Resource, s.Edit)
	case "version":
		return "the service moves to a later version"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s", s.Op, s.Workspace, s.Flags)
	if s.Op == "kill" {
		fmt.Fprintf(&b, " killed with request %d (provider too: %v)", s.Kill.After, s.Kill.Provider)
	}
	for i, c := range s.Configs {
		fmt.Fprintf(&b, "\n     r%d: %s", i, c)
	}
	return b.String()
}

// ScriptGen generates a Script of steps steps.
func ScriptGen(steps int) *rapid.Generator[*Script] {
	return rapid.Custom(func(t *rapid.T) *Script {
		s := &Script{
			Catalog:    catalogGen.Draw(t, "catalog"),
			Current:    rapid.Bool().Draw(t, "@current"),
			Workspaces: []string{"default", "blue"},
			Kinds:      []string{rapid.SampledFrom(Kinds).Draw(t, "kind of r0"), rapid.SampledFrom(Kinds).Draw(t, "kind of r1")},
		}
		configs := map[string][]*Config{}
		for _, ws := range s.Workspaces {
			configs[ws] = make([]*Config, len(s.Kinds))
		}
		switched := false
		for i := range steps {
			ws := rapid.SampledFrom(s.Workspaces).Draw(t, fmt.Sprint("workspace of step ", i))
			op := rapid.SampledFrom([]string{"apply", "apply", "apply", "kill", "kill", "change", "change", "version"}).
				Draw(t, fmt.Sprint("step ", i))
			step := ScriptStep{Workspace: ws, Op: op}
			switch op {
			case "version":
				if switched || i < steps/2 {
					step.Op = "apply"
					break
				}
				switched = true
				s.Steps = append(s.Steps, step)
				continue
			case "change":
				r := rapid.IntRange(0, len(s.Kinds)-1).Draw(t, fmt.Sprint("resource of step ", i))
				if c := configs[ws][r]; c != nil {
					step.Resource, step.Edit = r, scriptEditGen(s.Catalog, c).Draw(t, fmt.Sprint("change of step ", i))
					s.Steps = append(s.Steps, step)
					continue
				}
				step.Op = "apply"
			}
			next := slices.Clone(configs[ws])
			r := rapid.IntRange(0, len(s.Kinds)-1).Draw(t, fmt.Sprint("resource configured in step ", i))
			other := configs[otherOf(s.Workspaces, ws)][r]
			switch {
			case other != nil && rapid.IntRange(0, 2).Draw(t, fmt.Sprint("copy in step ", i)) == 0:
				cp := *other
				next[r] = &cp
			case next[r] != nil && rapid.IntRange(0, 5).Draw(t, fmt.Sprint("leave out in step ", i)) == 0:
				next[r] = nil
			default:
				next[r] = tameConfigGen(s.Catalog, s.Kinds[r]).Draw(t, fmt.Sprint("config of step ", i))
			}
			step.Configs, configs[ws] = next, next
			step.Flags = scriptFlagsGen(len(s.Kinds)).Draw(t, fmt.Sprint("flags of step ", i))
			if step.Op == "kill" {
				step.Kill = Kill{
					After:    rapid.IntRange(1, 3).Draw(t, fmt.Sprint("killed with request in step ", i)),
					Provider: rapid.Bool().Draw(t, fmt.Sprint("provider killed in step ", i)),
				}
			}
			s.Steps = append(s.Steps, step)
		}
		// Drawn last, so that a seed's steps stay what they were.
		s.Start = rapid.SampledFrom([]localapi.Version{localapi.VersionB, localapi.VersionC, localapi.VersionD}).Draw(t, "version")
		s.Move = rapid.SampledFrom([]localapi.Version{localapi.VersionC, localapi.VersionD, localapi.VersionE,
			localapi.VersionE2026}[s.Start-localapi.VersionB:]).Draw(t, "version moved to")
		return s
	})
}

func otherOf(workspaces []string, ws string) string {
	for _, w := range workspaces {
		if w != ws {
			return w
		}
	}
	return ws
}

// tameConfigGen is a configuration of kind that the service accepts (the
// scenarios at the protocol level try every shape of value; scripts are
// about what Terraform does with values that apply): simple text, order
// and filters, the plugin's settings of every JSON type, and its secrets.
func tameConfigGen(cat *Catalog, kind string) *rapid.Generator[*Config] {
	return rapid.Custom(func(t *rapid.T) *Config {
		text := rapid.SampledFrom([]*string{nil, ptr("GeoIP"), ptr("Événements"), ptr("Page views\n")})
		c := &Config{
			Kind:        kind,
			Plugin:      rapid.SampledFrom(cat.OfKind(kind)).Draw(t, "plugin"),
			ProjectID:   rapid.SampledFrom([]*string{nil, ptr("1"), ptr("@current")}).Draw(t, "project_id"),
			Enabled:     rapid.SampledFrom([]*bool{nil, ptr(true), ptr(false)}).Draw(t, "enabled"),
			Order:       rapid.SampledFrom([]*int64{nil, ptr(int64(0)), ptr(int64(3))}).Draw(t, "order"),
			Name:        text.Draw(t, "name"),
			Description: text.Draw(t, "description"),
			Filters: rapid.SampledFrom([]*string{nil, ptr(`{}`),
				ptr(`{"events":[{"id":"$pageview","name":"Page view","type":"events","order":0,"properties":[]}]}`)}).
				Draw(t, "filters"),
		}
		if rapid.Bool().Draw(t, "settings") {
			c.Settings = ptr(settingsGen(cat, c.Plugin).Draw(t, "config"))
		}
		if secrets := cat.SecretKeys(c.Plugin); len(secrets) > 0 && rapid.Bool().Draw(t, "secrets") {
			c.Secret = ptr(secretsGen(secrets).Draw(t, "secret_config_wo"))
			c.SecretVersion = ptr(rapid.Int64Range(1, 3).Draw(t, "secret_config_wo_version"))
		}
		return AsJSONEncodeWrites(c)
	})
}

// scriptFlagsGen is flagsGen for resources r0..rn-1.
func scriptFlagsGen(n int) *rapid.Generator[Flags] {
	ws := &Workspace{}
	for i := range n {
		ws.slots = append(ws.slots, &slot{name: fmt.Sprint("r", i)})
	}
	return flagsGen(ws)
}

// scriptEditGen draws a change on the service of a config configured as c:
// a setting or a secret edited as the UI does, a field, or a soft delete.
func scriptEditGen(cat *Catalog, c *Config) *rapid.Generator[ScriptEdit] {
	return rapid.Custom(func(t *rapid.T) ScriptEdit {
		kinds := []string{"setting", "setting", "name", "enabled", "order", "filters", "delete"}
		if len(cat.SecretKeys(c.Plugin)) > 0 {
			kinds = append(kinds, "secret", "secret")
		}
		switch kind := rapid.SampledFrom(kinds).Draw(t, "change"); kind {
		case "setting", "secret":
			edit := settingEditGen(cat, c.Plugin, nil, kind == "secret").Draw(t, kind)
			return ScriptEdit{Setting: &edit}
		case "delete":
			return ScriptEdit{Delete: true}
		default:
			return ScriptEdit{Fields: outOfBandGen(cat, kind, c).Draw(t, kind)}
		}
	})
}

// HCL renders a workspace's configuration: the provider block and the
// resources.
func (s *Script) HCL(env *Env, configs []*Config) string {
	var b strings.Builder
	b.WriteString(env.ProviderHCL())
	for i, c := range configs {
		if c != nil {
			b.WriteString("\n" + c.HCL(fmt.Sprint("r", i)))
		}
	}
	return b.String()
}
