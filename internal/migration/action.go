package migration

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

var (
	_ action.ActionWithConfigure  = (*migrateAction)(nil)
	_ action.ActionWithModifyPlan = (*migrateAction)(nil)
)

// migrateAction is the action pipeline_<kind>_migrate (Terraform 1.14+):
// the migration resource's call, made whenever the action is invoked, with
// nothing kept in state.
type migrateAction struct {
	framework.ActionBase
	kind kind.Kind
}

// NewAction returns the constructor of the migrate action of kind k.
func NewAction(k kind.Kind) func() action.Action {
	return func() action.Action {
		return &migrateAction{ActionBase: framework.NewActionBase(k.TypeSuffix("migrate")), kind: k}
	}
}

// Schema implements action.Action.
func (a *migrateAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = actionSchema(a.kind)
}

// ModifyPlan implements action.ActionWithModifyPlan: the config is checked
// before anything is migrated.
func (a *migrateAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	a.PlanCheck(ctx, req.Config, &resp.Diagnostics, func(meta *framework.ProviderData, project string) diag.Diagnostics {
		var cfg args
		if diags := req.Config.Get(ctx, &cfg); diags.HasError() {
			return diags
		}
		return check(ctx, meta, a.kind, project, &cfg)
	})
}

// Invoke migrates the config, saying what it does as it goes.
func (a *migrateAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var cfg args
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	meta, project := a.MustProject(cfg.ProjectID, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, framework.DefaultWriteTimeout)
	defer cancel()
	id := cfg.ConfigID.ValueInt64()
	ctx = tflog.SetField(ctx, "config_id", id)

	framework.Progress(resp, fmt.Sprintf("Migrating %s %d of project %s to a hog function", a.kind.Noun, id, project))
	hf, ok := migrate(ctx, meta, a.kind, project, &cfg, &resp.Diagnostics)
	if !ok {
		return
	}
	framework.Progress(resp, fmt.Sprintf("The service made hog function %s (%q) of %s %d and disabled the config",
		hf.ID, hf.Name, a.kind.Noun, id))
}
