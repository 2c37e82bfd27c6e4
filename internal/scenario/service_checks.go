package scenario

import (
	"encoding/json"
	"slices"

	"pgregory.net/rapid"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/acctest"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// What an apply that succeeded leaves on the service, beyond what the next
// plan can see.

// checkDeleted checks that a destroyed config is deleted on the service
// (the service's DELETE only disables).
func (m *Machine) checkDeleted(t *rapid.T, prior acctest.Instance, after Snapshot) {
	id, _, ok := idOf(prior)
	if !ok {
		return
	}
	if rec, ok := after[id]; ok && !rec.Deleted {
		m.fail(t, "config %d was destroyed but the service has it active", id)
	}
}

// checkSecretsHeld checks the secrets of an apply that sent them (a create,
// or a new secret_config_wo_version): the service holds each secret key
// secret_config_wo sets, and no value for one it leaves out or sets to
// null (cleared: absent, null or ""), since the configuration says the
// config has none. Write-only values never reach a plan, so only the
// service tells; the local API's store shows them unmasked.
func (m *Machine) checkSecretsHeld(t *rapid.T, ws *Workspace, s *slot, p *acctest.Plan, after Snapshot) {
	if m.env.Local == nil || s.config == nil || s.config.Secret == nil {
		return
	}
	if p.Action() == "update" && ShownOf(s.name, p).Same("secret_config_wo_version") {
		return
	}
	id, _, ok := idOf(s.inst)
	if !ok {
		return
	}
	var configured map[string]json.RawMessage
	if json.Unmarshal([]byte(*s.config.Secret), &configured) != nil {
		return
	}
	stored := object(after[id].Config)
	for _, k := range m.env.Catalog.SecretKeys(s.config.Plugin) {
		want, set := configured[k]
		got, has := stored[k]
		switch {
		case set && !python.IsNull(want):
			if !has || !python.Equal(got, want) {
				m.fail(t, "after the %s of %s, config %d holds secret %q = %s, but secret_config_wo sets %s",
					p.Action(), ws.address(s), id, k, presence(got, has), want)
			}
		case has && !python.IsNull(got) && !slices.Equal(got, json.RawMessage(`""`)):
			m.fail(t, "after the %s of %s, config %d still holds secret %q, which secret_config_wo no longer sets",
				p.Action(), ws.address(s), id, k)
		}
	}
}
