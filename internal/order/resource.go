// Package order is the resource pipeline_KIND_order: the sequence of a
// collection's configs in one project; sequence.go decides what to write.
package order

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
)

var (
	_ resource.ResourceWithConfigure   = (*orderResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*orderResource)(nil)
	_ resource.ResourceWithImportState = (*orderResource)(nil)
	_ resource.ResourceWithIdentity    = (*orderResource)(nil)
)

var (
	configIDsPath = path.Root("config_ids")
	unlistedPath  = path.Root("unlisted_configs")
)

type orderResource struct {
	framework.ResourceBase
	kind kind.Kind
}

// New returns the constructor of the order resource of kind k.
func New(k kind.Kind) func() resource.Resource {
	return func() resource.Resource {
		return &orderResource{ResourceBase: framework.NewResourceBase(k.TypeSuffix("order")), kind: k}
	}
}

// ModifyPlan implements resource.ResourceWithModifyPlan: the orders of the
// configs the last refresh saw are planned as apply will write them.
func (r *orderResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	framework.PlanProjectID(ctx, r.Meta(), framework.ProjectWitness{Collection: r.kind.Collection, IDAttribute: "config_ids"}, req, resp)
	if resp.Diagnostics.HasError() || req.Plan.Raw.IsNull() {
		return
	}
	var plan model
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.ID = plan.ProjectID
	plan.Orders, plan.UnlistedIDs = types.MapUnknown(types.Int64Type), types.ListUnknown(types.Int64Type)
	ids, known := listInt64s(ctx, plan.ConfigIDs, &resp.Diagnostics)
	if !req.State.Raw.IsNull() && known && !plan.Unlisted.IsUnknown() && !resp.Diagnostics.HasError() {
		var state model
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		current, currentKnown := mapOrders(ctx, state.Orders, &resp.Diagnostics)
		if currentKnown && !resp.Diagnostics.HasError() && allIn(ids, current) {
			want, unlisted := arrange(plan.Unlisted.ValueString(), ids, current)
			plan.Orders, plan.UnlistedIDs = state.Orders, int64List(unlisted)
			if !maps.Equal(want, current) {
				plan.Orders = ordersMap(sequenceOf(want), want)
			}
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// Create applies the configured sequence.
func (r *orderResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, req.Plan, false, &resp.State, resp.Identity, &resp.Diagnostics)
}

// Update applies the configured sequence.
func (r *orderResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.apply(ctx, req.Plan, true, &resp.State, resp.Identity, &resp.Diagnostics)
}

// apply brings the service to the planned sequence and keeps the orders (and
// the project, when the plan did not know it) it holds afterwards.
func (r *orderResource) apply(ctx context.Context, reqPlan tfsdk.Plan, update bool,
	state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics,
) {
	var plan model
	diags.Append(reqPlan.Get(ctx, &plan)...)
	meta := r.MustMeta(diags)
	timeout := plan.Timeouts.Create
	if update {
		timeout = plan.Timeouts.Update
	}
	ctx, cancel := framework.OperationContext(ctx, timeout, framework.DefaultWriteTimeout, diags)
	defer cancel()
	if diags.HasError() {
		return
	}
	project := framework.ProjectOrDefault(plan.ProjectID, meta, diags)
	ids, _ := listInt64s(ctx, plan.ConfigIDs, diags)
	planned, plannedKnown := mapOrders(ctx, plan.Orders, diags)
	plannedUnlisted, unlistedKnown := listInt64s(ctx, plan.UnlistedIDs, diags)
	if diags.HasError() {
		return
	}
	plan.ProjectID, plan.ID = types.StringValue(project), types.StringValue(project)

	recs, err := meta.Client.ListAll(ctx, project, r.kind.Collection)
	if err != nil {
		framework.AddAPIError(diags, fmt.Sprintf("Could not list the %ss of project %s", r.kind.Noun, project), err, nil)
		return
	}
	current, _ := activeOrders(recs)
	var missing []string
	for _, id := range ids {
		if _, ok := current[id]; !ok {
			missing = append(missing, client.FormatID(id))
		}
	}
	if len(missing) > 0 {
		diags.AddAttributeError(configIDsPath, "Unknown configs in config_ids", fmt.Sprintf(
			"Project %s has no %s with id %s: unknown, soft-deleted, or a config of another kind. "+
				"Remove them from config_ids.", project, r.kind.Noun, strings.Join(missing, ", ")))
		return
	}

	// A config that appeared since the plan stays as it is until the next.
	want, unlisted := planned, plannedUnlisted
	if !plannedKnown || !unlistedKnown {
		want, unlisted = arrange(plan.Unlisted.ValueString(), ids, current)
	}
	writes := map[int64]int64{}
	for id, o := range want {
		if _, active := current[id]; active {
			writes[id] = o
		}
	}
	changes := changedOrders(writes, current)
	// No list page fetched before these writes may serve the records' reads.
	defer func() {
		for id := range changes {
			meta.ReadCache().Invalidate(id)
		}
	}()
	if err := r.setOrders(ctx, meta.Client, project, changes); err != nil {
		framework.AddCustomActionError(diags, fmt.Sprintf("Could not order the %ss of project %s", r.kind.Noun, project),
			framework.ActionRearrange, err, nil)
		return
	}
	plan.Orders, plan.UnlistedIDs = ordersMap(sequenceOf(want), want), int64List(unlisted)
	diags.Append(state.Set(ctx, &plan)...)
	diags.Append(framework.StoreIdentity(ctx, identity, identityModel{ProjectID: plan.ProjectID})...)
}

// setOrders writes orders (by config id): one rearrange, then a PATCH of each
// config it did not set (disabled ones), or of each when the key may not call it.
func (r *orderResource) setOrders(ctx context.Context, c *client.Client, project string, orders map[int64]int64) error {
	if len(orders) == 0 {
		tflog.Debug(ctx, "the service already holds the sequence")
		return nil
	}
	remaining := orders
	recs, err := c.Rearrange(ctx, project, r.kind.Collection, orders)
	switch {
	case client.IsForbidden(err):
		tflog.Info(ctx, "the API key may not call rearrange; updating the order of each config instead",
			map[string]any{"configs": len(orders)})
	case err != nil:
		return err
	default:
		if recs == nil { // the published schema's answer, without the records
			if recs, err = c.ListAll(ctx, project, r.kind.Collection); err != nil {
				return err
			}
		}
		now, _ := activeOrders(recs)
		remaining = changedOrders(orders, now)
		tflog.Debug(ctx, "rearranged", map[string]any{"configs": len(orders), "left_to_update": len(remaining)})
	}
	var errs []error
	for _, id := range slices.Sorted(maps.Keys(remaining)) {
		if _, err := c.Update(ctx, project, r.kind.Collection, id, client.RecordInput{Order: client.Some(remaining[id])}); err != nil {
			errs = append(errs, fmt.Errorf("setting the order of config %d: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// Read lists the collection and reports the sequence the service holds.
func (r *orderResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state model
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	meta := r.MustMeta(&resp.Diagnostics)
	resp.Diagnostics.Append(framework.StoreIdentity(ctx, resp.Identity, identityModel{ProjectID: state.ProjectID})...)
	ctx, cancel := framework.OperationContext(ctx, state.Timeouts.Read, framework.DefaultReadTimeout, &resp.Diagnostics)
	defer cancel()
	if resp.Diagnostics.HasError() {
		return
	}

	project := state.ProjectID.ValueString()
	recs, err := meta.Client.ListAll(ctx, project, r.kind.Collection)
	if err != nil {
		framework.AddAPIError(&resp.Diagnostics, fmt.Sprintf("Could not list the %ss of project %s", r.kind.Noun, project), err, nil)
		return
	}
	previous, _ := listInt64s(ctx, state.ConfigIDs, &resp.Diagnostics)
	current, byOrder := activeOrders(recs)
	ids := observedSequence(previous, current, byOrder)
	state.ID = state.ProjectID
	state.ConfigIDs = int64List(ids)
	state.UnlistedIDs = int64List(unlistedIDs(byOrder, ids))
	state.Orders = ordersMap(byOrder, current)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Delete changes nothing on the service: the configs keep their orders.
func (r *orderResource) Delete(ctx context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
	tflog.Info(ctx, "removing the "+r.kind.Name+" order from state; the configs keep their orders")
}

// ImportState implements resource.ResourceWithImportState: the import ID,
// or the identity (Terraform 1.12+), names the project; Read fills the rest.
func (r *orderResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	project := req.ID
	if project == "" && req.Identity != nil {
		var ident identityModel
		resp.Diagnostics.Append(req.Identity.Get(ctx, &ident)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if project = framework.ImportProject(ident.ProjectID, r.Meta(), &resp.Diagnostics); resp.Diagnostics.HasError() {
			return
		}
	} else if !framework.ValidProjectID(project) {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf(
			`The import ID of the order resource is the project id (e.g. 1) or "@current", got %q.`, req.ID))
		return
	}
	id := types.StringValue(project)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, framework.ProjectIDPath, id)...)
	// The default: a configuration that says otherwise plans the change.
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, unlistedPath, types.StringValue(unlistedLast))...)
	resp.Diagnostics.Append(framework.SetImportedIdentity(ctx, resp.Identity, identityModel{ProjectID: id})...)
}
