package collection

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// createRequest is the body of the POST: the record's fields and, when any
// settings are configured, config: the non-secret settings merged with the
// secret ones (secret, the write-only value from the configuration). Without
// settings the request stays JSON.
func (m *Model) createRequest(secret types.String) (client.RecordInput, error) {
	in := createInput(&m.Model)
	if !framework.IsSet(m.Config) && !framework.IsSet(secret) {
		return in, nil
	}
	cfg, err := record.SettingsInput(m.Config, secret)
	if err != nil {
		return in, err
	}
	in.Config = client.Some(cfg)
	return in, nil
}

// settingsUpdate returns the config to send in the PATCH, if any. The
// service replaces the stored non-secret settings with what config holds
// and keeps the stored secrets whose keys it leaves out, so config carries
// the planned non-secret settings whenever it is sent, and the secrets only
// when secret_config_wo_version changes. config is the configuration.
func (r *recordResource) settingsUpdate(ctx context.Context, c *client.Client, project string, id int64,
	plan, state, config *Model,
) (client.Opt[json.RawMessage], error) {
	resend := framework.IsSet(config.SecretConfig) && !plan.SecretConfigVersion.Equal(state.SecretConfigVersion)
	changed := framework.IsSet(plan.Config) && !plan.Config.Equal(state.Config)
	if !changed && !resend {
		return client.Opt[json.RawMessage]{}, nil
	}
	plain, secret := plan.Config, types.StringNull()
	if resend {
		secret = config.SecretConfig
		if config.Config.IsNull() {
			// Settings not managed here: send what the service holds now,
			// which state may not show in full (see record.SettingsFromAPI).
			current, err := r.currentSettings(ctx, c, project, id, state.PluginInfo)
			if err != nil {
				return client.Opt[json.RawMessage]{}, err
			}
			plain = current
		}
	}
	cfg, err := record.SettingsInput(plain, secret)
	if err != nil {
		return client.Opt[json.RawMessage]{}, err
	}
	return client.Some(cfg), nil
}

// currentSettings retrieves the config's non-secret settings.
func (r *recordResource) currentSettings(ctx context.Context, c *client.Client, project string, id int64,
	info jsontypes.Normalized,
) (jsontypes.Normalized, error) {
	rec, err := c.Get(ctx, project, r.kind.Collection, id)
	if err != nil {
		return jsontypes.Normalized{}, err
	}
	secrets, known := record.SecretKeys(rec.PluginInfo)
	if !known {
		secrets, _ = record.SecretKeysOf(info)
	}
	return record.SettingsFromAPI(rec.Config, secrets, jsontypes.NewNormalizedNull()), nil
}
