package acceptance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
)

// A scenario is a sequence of configurations one working directory goes
// through with a provider standing in the official PostHog provider's
// place, against a local API of its own.
type scenario struct {
	name string
	// options are the local API's.
	options localapi.Options
	// before prepares the service (host, the key KeyOrg) before the first
	// step.
	before func(t *testing.T, host string)
	steps  []scenarioStep
}

// A scenarioStep writes its configuration, runs its commands (apply when
// none), then plans.
type scenarioStep struct {
	name string
	// config, in which "<live>" stands for the id of the one hog function
	// the service shows, and "<hog N>" for the Nth it made.
	config string
	// commands are terraform's arguments, with the same placeholders.
	commands [][]string
	// check, if any, judges what the step did, whichever provider ran.
	check func(t *testing.T, o observed, local *localapi.Server)
}

var applyCommand = []string{"apply", "-auto-approve", "-no-color"}

// observed is what Terraform and the service show after a step, hog
// function ids written as "<hog N>" in the order the service made them.
type observed struct {
	Step string `json:"step"`
	// Errors are those the commands reported, as diagnosticsOf reads them.
	Errors []string `json:"errors,omitempty"`
	// Plan are the changes (and drift) the next plan has, or its errors.
	Plan []string `json:"plan"`
	// State holds the attributes of each posthog_hog_function by address.
	State map[string]map[string]json.RawMessage `json:"state"`
	// Service holds the hog functions the service keeps, deleted ones too,
	// oldest first, without their times.
	Service []map[string]json.RawMessage `json:"service"`
	// Requests are the hog function requests the step's commands and plan
	// sent, by operation.
	Requests map[string]int64 `json:"requests"`
}

// runScenario runs sc with the provider p in the official one's place.
func runScenario(t *testing.T, sc scenario, p *acctest.MirroredProvider) []observed {
	t.Helper()
	host, local := acctest.IsolatedAPIWith(t, sc.options, nil)
	if sc.before != nil {
		sc.before(t, host)
	}
	ids := &hogIDs{local: local}
	tf := acctest.NewTerraformWith(t, "", withPostHog(acctest.TerraformSetup{Env: postHogEnv(host)}, p))
	var run []observed
	for _, st := range sc.steps {
		ids.learn()
		tf.WriteConfig(ids.expand(t, st.config))
		local.ResetCounters()
		o := observed{Step: st.name}
		commands := st.commands
		if commands == nil {
			commands = [][]string{applyCommand}
		}
		for _, c := range commands {
			args := make([]string, len(c))
			for i, a := range c {
				args[i] = ids.expand(t, a)
			}
			if out, err := tf.Run(args...); err != nil {
				o.Errors = append(o.Errors, fmt.Sprintf("%s: %s", c[0], strings.Join(diagnosticsOf(out), "; ")))
			}
		}
		o.Plan = nextPlan(t, tf)
		o.Requests = hogRequests(local)
		ids.learn()
		o.State = ids.state(t, tf)
		o.Service = ids.service(t)
		if st.check != nil {
			st.check(t, o, local)
		}
		run = append(run, o)
	}
	return run
}

// hogIDs names the service's hog functions "<hog N>" in the order it made
// them.
type hogIDs struct {
	local *localapi.Server
	ids   []string
}

// learn names the hog functions made since the last call.
func (h *hogIDs) learn() {
	for _, hf := range h.local.HogFunctions() {
		if !slices.Contains(h.ids, hf.ID) {
			h.ids = append(h.ids, hf.ID)
		}
	}
}

// expand puts ids in the place of "<hog N>" and "<live>" in s.
func (h *hogIDs) expand(t *testing.T, s string) string {
	t.Helper()
	if strings.Contains(s, "<live>") {
		var live []string
		for _, hf := range h.local.HogFunctions() {
			if !hf.Deleted {
				live = append(live, hf.ID)
			}
		}
		if len(live) != 1 {
			t.Fatalf("<live> in %q, but the service shows %d hog functions", s, len(live))
		}
		s = strings.ReplaceAll(s, "<live>", live[0])
	}
	for i, id := range h.ids {
		s = strings.ReplaceAll(s, fmt.Sprintf("<hog %d>", i+1), id)
	}
	return s
}

// named puts names in the place of ids in s.
func (h *hogIDs) named(s string) string {
	for i, id := range h.ids {
		s = strings.ReplaceAll(s, id, fmt.Sprintf("<hog %d>", i+1))
	}
	return s
}

// state is the attributes of every posthog_hog_function in tf's state.
func (h *hogIDs) state(t *testing.T, tf *acctest.Terraform) map[string]map[string]json.RawMessage {
	t.Helper()
	out := map[string]map[string]json.RawMessage{}
	for addr, in := range tf.State() {
		if !strings.HasPrefix(addr, "posthog_hog_function.") {
			continue
		}
		attrs := map[string]json.RawMessage{}
		for k, v := range in.Attributes {
			attrs[k] = json.RawMessage(h.named(string(v)))
		}
		out[addr] = attrs
	}
	return out
}

// service is every hog function the service keeps, without its times.
func (h *hogIDs) service(t *testing.T) []map[string]json.RawMessage {
	t.Helper()
	out := []map[string]json.RawMessage{}
	for _, hf := range h.local.HogFunctions() {
		raw, err := json.Marshal(hf)
		if err != nil {
			t.Fatal(err)
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal([]byte(h.named(string(raw))), &fields); err != nil {
			t.Fatal(err)
		}
		delete(fields, "created_at")
		delete(fields, "updated_at")
		out = append(out, fields)
	}
	return out
}

// hogRequests are the hog function requests counted, by operation.
func hogRequests(local *localapi.Server) map[string]int64 {
	out := map[string]int64{}
	for op, n := range local.Counters() {
		if strings.HasPrefix(op, "hog_function_") && n > 0 {
			out[op] = n
		}
	}
	return out
}

var (
	// errorLine starts a diagnostic in terraform's -no-color output.
	errorLine = regexp.MustCompile(`(?m)^(?:│ )?Error: (.*)$`)
	// inconsistentAttr is the attribute Terraform names in "Provider
	// produced inconsistent result after apply".
	inconsistentAttr = regexp.MustCompile(`produced an unexpected new value: (\S+?):`)
	// answerStatus is the HTTP status of a service's answer a provider
	// quotes.
	answerStatus = regexp.MustCompile(`status (\d{3})`)
)

// diagnosticsOf reads the errors of terraform's output, sorted:
// Terraform's own by their summary (and the attribute, for an inconsistent
// result), a provider's by the status the service answered, as each
// provider words them its own way.
func diagnosticsOf(out string) []string {
	var diags []string
	starts := errorLine.FindAllStringSubmatchIndex(out, -1)
	for i, m := range starts {
		end := len(out)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		summary := out[m[2]:m[3]]
		detail := strings.Join(strings.Fields(out[m[1]:end]), " ")
		switch a := inconsistentAttr.FindStringSubmatch(detail); {
		case a != nil:
			diags = append(diags, summary+": "+a[1])
		case answerStatus.MatchString(summary + " " + detail):
			diags = append(diags, "the service answered "+answerStatus.FindStringSubmatch(summary + " " + detail)[1])
		default:
			diags = append(diags, summary)
		}
	}
	if len(diags) == 0 {
		diags = []string{"failed without an error diagnostic"}
	}
	slices.Sort(diags) // Terraform's order of an object's attributes varies
	return diags
}

// nextPlan plans and lists what the plan would change (and the drift it
// found), or its errors.
func nextPlan(t *testing.T, tf *acctest.Terraform) []string {
	t.Helper()
	if out, err := tf.Run("plan", "-no-color", "-out=next.tfplan"); err != nil {
		return append([]string{"error"}, diagnosticsOf(out)...)
	}
	var stdout, stderr bytes.Buffer
	show := tf.Command(context.Background(), nil, "show", "-json", "next.tfplan")
	show.Stdout, show.Stderr = &stdout, &stderr
	if err := show.Run(); err != nil {
		t.Fatalf("show -json: %v\n%s", err, stderr.String())
	}
	var plan struct {
		Drift   []plannedChange `json:"resource_drift"`
		Changes []plannedChange `json:"resource_changes"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &plan); err != nil {
		t.Fatalf("show -json: %v", err)
	}
	out := []string{}
	for _, c := range plan.Drift {
		out = append(out, "drift: "+c.String())
	}
	for _, c := range plan.Changes {
		if !slices.Equal(c.Change.Actions, []string{"no-op"}) || c.Change.Importing != nil {
			out = append(out, c.String())
		}
	}
	return out
}

// plannedChange is a resource change of `terraform show -json`.
type plannedChange struct {
	Address string `json:"address"`
	Change  struct {
		Actions      []string                   `json:"actions"`
		Before       map[string]json.RawMessage `json:"before"`
		After        map[string]json.RawMessage `json:"after"`
		AfterUnknown map[string]json.RawMessage `json:"after_unknown"`
		Importing    *struct{}                  `json:"importing"`
	} `json:"change"`
	ActionReason string `json:"action_reason"`
}

// String is the change's address, actions, and the attributes it changes.
func (c plannedChange) String() string {
	s := c.Address + ": " + strings.Join(c.Change.Actions, ", ")
	if c.Change.Importing != nil {
		s += ", import"
	}
	if c.ActionReason != "" {
		s += " (" + c.ActionReason + ")"
	}
	var changed []string
	for k, after := range c.Change.After {
		if before := c.Change.Before[k]; string(before) != string(after) && (before != nil || string(after) != "null") {
			changed = append(changed, k)
		}
	}
	for k, unknown := range c.Change.AfterUnknown {
		if string(unknown) == "true" && !slices.Contains(changed, k) {
			changed = append(changed, k)
		}
	}
	if len(changed) > 0 {
		slices.Sort(changed)
		s += ": " + strings.Join(changed, ", ")
	}
	return s
}

// postHogSchema is the schema of the provider p (its settings and
// posthog_hog_function) as terraform providers schema -json shows it,
// without descriptions, as indented JSON.
func postHogSchema(t *testing.T, p *acctest.MirroredProvider) json.RawMessage {
	t.Helper()
	tf := acctest.NewTerraformWith(t, "", withPostHog(acctest.TerraformSetup{}, p))
	var stdout, stderr bytes.Buffer
	cmd := tf.Command(context.Background(), nil, "providers", "schema", "-json")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("providers schema: %v\n%s", err, stderr.String())
	}
	type block = map[string]any
	var all struct {
		Schemas map[string]struct {
			Provider  block            `json:"provider"`
			Resources map[string]block `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &all); err != nil {
		t.Fatalf("providers schema: %v", err)
	}
	for addr, s := range all.Schemas {
		if strings.HasSuffix(addr, "/posthog/posthog") {
			raw, err := json.MarshalIndent(withoutDescriptions(map[string]any{
				"provider": s.Provider, "posthog_hog_function": s.Resources["posthog_hog_function"]}), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			return raw
		}
	}
	t.Fatalf("providers schema has no posthog/posthog:\n%s", stdout.String())
	return nil
}

// withoutDescriptions is v without the description members of its objects.
func withoutDescriptions(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k != "description" && k != "description_kind" {
				out[k] = withoutDescriptions(e)
			}
		}
		return out
	case []any:
		for i, e := range x {
			x[i] = withoutDescriptions(e)
		}
	}
	return v
}
