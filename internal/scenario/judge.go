package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/localapi"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// Verdict asks the service whether it takes what an apply of action
// ("create", "update", "replace") sends for c, and why not. The service
// judges the values itself (Env.Accepts), at version B, which has every
// field: from version C on it has no filters, so configured filters must
// filter nothing (what B stores as {}), and from E on it stores no new
// config, so a create or replacement cannot succeed.
func (e *Env) Verdict(ctx context.Context, c *Config, action string) (bool, string, error) {
	if e.Local == nil || e.Local.Version() == localapi.VersionB {
		ok, why, _, err := e.judge(ctx, c)
		return ok, why, err
	}
	v := e.Local.Version()
	if action != "update" && v >= localapi.VersionE {
		return false, fmt.Sprintf("the service stores no new config from version E on (it is at %v)", v), nil
	}
	if err := e.Local.SetVersion(localapi.VersionB); err != nil {
		return false, "", err
	}
	ok, why, filters, err := e.judge(ctx, c)
	if err := e.Local.SetVersion(v); err != nil {
		return false, "", err
	}
	if ok && c.Filters != nil && !filtersNothing(filters) {
		return false, fmt.Sprintf("the service has no filters from version C on (it is at %v), and these filter something: %s",
			v, filters), err
	}
	return ok, why, err
}

// filtersNothing reports whether filters as the service stored them filter
// nothing: null or {}.
func filtersNothing(stored json.RawMessage) bool {
	return python.IsNull(stored) || python.Equal(stored, json.RawMessage(`{}`))
}

// intended is the action an apply of s's configuration takes from the
// refreshed instance in, for a plan refused before it said.
func (m *Machine) intended(s *slot, in acctest.Instance) string {
	switch {
	case s.config == nil:
		return "delete"
	case !in.Exists():
		return "create"
	case m.replaceableFrom(s, in):
		return "replace"
	}
	return "update"
}

// checkRefusal checks a refused plan or apply of s: the service refuses the
// values too (or the provider refuses plugin settings the plugin's schema
// disagrees with, or a create the service can no longer store), and the
// error names the attribute.
func (m *Machine) checkRefusal(t *rapid.T, ws *Workspace, s *slot, action string, diags []*tfprotov6.Diagnostic, when string) {
	if generation2Create(diags) {
		if action == "create" || action == "replace" {
			return
		}
		m.fail(t, "the %s of %s (%s) was refused as a create:%s", when, ws.address(s), action, acctest.DiagnosticsText(diags))
	}
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError && d.Attribute == nil {
			m.fail(t, "the %s of %s was refused without naming an attribute:%s", when, ws.address(s), acctest.DiagnosticsText(diags))
		}
	}
	if settingsPolicy(diags) {
		return
	}
	if s.config == nil {
		m.fail(t, "the %s of %s's removal was refused:%s", when, ws.address(s), acctest.DiagnosticsText(diags))
	}
	ok, _, err := m.env.Verdict(context.Background(), s.config, action)
	if err != nil {
		m.fail(t, "asking the service about %s: %v", ws.address(s), err)
	}
	if ok {
		m.fail(t, "the %s of %s (%s) was refused, but the service accepts its values:%s", when, ws.address(s), action,
			acctest.DiagnosticsText(diags))
	}
}

// generation2Create reports whether diags refuse a create because the
// service no longer stores configs (version E on): what the create made
// instead, that it made nothing, or a replacement refused at plan time.
func generation2Create(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError &&
			(strings.HasPrefix(d.Summary, "The service made a hog function instead of") ||
				strings.HasPrefix(d.Summary, "The service no longer creates") ||
				strings.HasPrefix(d.Summary, replacementRefused)) {
			return true
		}
	}
	return false
}

// replacementRefused begins the summary of the provider's refusal of a
// replacement on a service that makes no configs.
const replacementRefused = "Cannot replace config "

// settingsPolicy reports whether every error is the provider's own rule on
// plugin settings: secret keys belong in secret_config_wo, the others in
// config, as the plugin's schema says (which an upgrade may change), and no
// key in both.
func settingsPolicy(diags []*tfprotov6.Diagnostic) bool {
	policy := []string{"Secret setting in config", "Non-secret setting in secret_config_wo", "Setting in both config and secret_config_wo"}
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError && !slices.Contains(policy, d.Summary) {
			return false
		}
	}
	return true
}

// replaceable reports whether s's configuration may replace its config:
// another plugin, or another project (the project's id and "@current" are
// one project).
func (m *Machine) replaceable(s *slot) bool { return m.replaceableFrom(s, s.inst) }

// replaceableFrom is replaceable from the instance in.
func (m *Machine) replaceableFrom(s *slot, in acctest.Instance) bool {
	attrs := in.Attrs()
	if s.config == nil || attrs == nil {
		return true
	}
	if p, ok := intAttr(attrs["plugin"]); !ok || p != s.config.Plugin {
		return true
	}
	var project string
	_ = attrs["project_id"].As(&project)
	want := m.env.Project
	if s.config.ProjectID != nil {
		want = *s.config.ProjectID
	}
	return !m.sameProject(project, want)
}
