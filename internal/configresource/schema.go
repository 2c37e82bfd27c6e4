package configresource

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/kind"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/record"
)

// schemaVersion is the version of the resource's state: 1 since plugin_info,
// error, delivery_rate_24h, deleted and team_id left it (upgrade.go).
const schemaVersion = 1

// Limits the service enforces, checked at plan time.
const (
	maxNameLength        = 400
	maxDescriptionLength = 1000
)

// writableAttributes are the record fields the service accepts in request
// bodies; an API error naming one of them is attached to that attribute.
var writableAttributes = []string{"plugin", "enabled", "order", "name", "description", "deleted", "filters", "config"}

// attrPath maps the attr of a service error to a schema attribute: nested
// attrs are joined with "__" (filters__events__0__type → filters).
func attrPath(attr string) (path.Path, bool) {
	first, _, _ := strings.Cut(attr, "__")
	for _, a := range writableAttributes {
		if a == first {
			return path.Root(a), true
		}
	}
	return path.Empty(), false
}

// resourceSchema is the schema of the config resource of kind k.
func resourceSchema(ctx context.Context, k kind.Kind) schema.Schema {
	return schema.Schema{
		Version: schemaVersion,
		MarkdownDescription: fmt.Sprintf("Manages one %[1]s of a project: a %[2]s plugin attached to the project, "+
			"with its enabled flag, order, name, description, filters and plugin settings (API collection `%[3]s`); "+
			"secret settings are write-only and never stored in state.\n\n"+
			"Destroying it deletes the config for good (the service's `deleted` flag, which also disables it): "+
			"the service's own DELETE only disables a config.\n\n"+
			"The resource keeps what describes the config. What describes its plugin (`plugin_info`: the "+
			"plugin's name, settings schema and jobs) or changes on its own (`delivery_rate_24h`, `error`), "+
			"the `deleted` flag and `team_id` are attributes of the data source `%[4]s` with the same `id`.",
			k.Noun, k.PluginNoun, k.Collection, k.ConfigTypeName()),
		Attributes: map[string]schema.Attribute{
			"id": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "Identifier of the config, unique across both collections.",
			},
			"project_id": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Project of the config: a project id or `@current`. Defaults to the provider's " +
					"`project_id`. Changing it to another project creates the config there; `@current` and the " +
					"project's id name the same project, so writing one for the other replaces nothing (the state " +
					"keeps the form it was created or imported with).",
				Validators: []validator.String{framework.ProjectIDValidator()},
			},
			"plugin": schema.Int64Attribute{
				Required: true,
				MarkdownDescription: fmt.Sprintf("Identifier of the %s plugin. Changing it creates a new config "+
					"(the service cannot change the plugin of a config).", k.PluginNoun),
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"enabled": schema.BoolAttribute{
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
				MarkdownDescription: "Whether the config runs. Defaults to `false`, as on the service.",
			},
			"order": schema.Int64Attribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Position of the config among the project's configs. Left out, a new config " +
					"gets `0` and later changes made elsewhere (e.g. by an ordering resource) are kept, " +
					"not reverted.",
				Validators: []validator.Int64{int64validator.Between(math.MinInt32, math.MaxInt32)},
			},
			"name": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: fmt.Sprintf("Name of the config, at most %d characters. The service strips "+
					"leading and trailing whitespace (a heredoc's last newline, say), which is no change and does "+
					"not count. Left out, or blank, the service shows the plugin's name, which may be empty.",
					maxNameLength),
				Validators: []validator.String{textValidator{max: maxNameLength}},
			},
			"description": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: fmt.Sprintf("Description of the config, at most %d characters. The service "+
					"strips leading and trailing whitespace (a heredoc's last newline, say), which is no change "+
					"and does not count. Left out, or blank, the service shows the plugin's description, which "+
					"may be empty.", maxDescriptionLength),
				Validators: []validator.String{textValidator{max: maxDescriptionLength}},
			},
			"filters": schema.StringAttribute{
				CustomType: record.FiltersType{},
				Optional:   true,
				// Computed only so that the plan may keep the state's text when
				// the configuration says the same thing differently (after an
				// import, say); planFilters still plans exactly the
				// configuration otherwise, null included.
				Computed: true,
				MarkdownDescription: "Which events the config applies to: a JSON object (write it with " +
					"`jsonencode`) with `events` and/or `actions` (lists of entries, each with a `type` of " +
					"`events` or `actions` and optionally `id`, `name`, `order` and `properties`, a list of " +
					"objects) and `filter_test_accounts` (a boolean). What the service would refuse (a blank " +
					"`id` or `name`, an `order` that is not an integer, `properties = null`) is refused at plan " +
					"time. What it rewrites is no change: it keeps only those keys (others are ignored, with a " +
					"warning), stores `id` and `name` as trimmed text (`id = 5` is `\"5\"`), `order` as an " +
					"integer and `filter_test_accounts` as a boolean (`\"true\"`, `1`), and adds `properties = []`. " +
					"Left out after being set, the filters are cleared (the service stores `{}`, which the state " +
					"shows as null). Services since July 2025 have no filters: set there, they are refused.",
			},
			"config": schema.StringAttribute{
				CustomType: jsontypes.NormalizedType{},
				Optional:   true,
				// Computed: left out, the service's settings are shown (and kept).
				Computed:   true,
				Validators: []validator.String{settingsObject, storableNumbers},
				MarkdownDescription: "Non-secret plugin settings, as a JSON object string (write it with `jsonencode`). " +
					"The service keeps only what an update sends, so a setting added elsewhere (in the UI) shows " +
					"as a change that the apply removes. Secret settings go in `secret_config_wo`. Left out, the " +
					"settings are not managed and show what the service holds.",
			},
			"secret_config_wo": schema.StringAttribute{
				Optional:  true,
				WriteOnly: true,
				// Write-only keeps the value out of plan and state. Sensitive
				// adds a sensitive_attributes entry (about 150 bytes) to every
				// config's state, but dropping it would make Terraform plan an
				// in-place update of every config once (it plans a change of
				// sensitivity as an update).
				Sensitive:  true,
				Validators: []validator.String{settingsObject, storableNumbers},
				MarkdownDescription: "Secret plugin settings, as a JSON object string (write it with `jsonencode`), " +
					"never stored in plan or state (Terraform 1.11+). Sent on create and whenever " +
					"`secret_config_wo_version` changes; then a secret key it leaves out is cleared.",
			},
			"secret_config_wo_version": schema.Int64Attribute{
				Optional: true,
				Validators: []validator.Int64{
					int64validator.AlsoRequires(path.MatchRoot("secret_config_wo")),
				},
				MarkdownDescription: "Version of `secret_config_wo`: change it (e.g. increment it) to send the " +
					"secret settings again. Other updates leave the stored secrets as they are. Setting it on a " +
					"config that has none (after an import, say) sends them once.",
			},
			"created_at": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "When the config was created (ISO 8601, UTC).",
			},
			"updated_at": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "When the config was last changed (ISO 8601, UTC).",
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Read: true, Update: true, Delete: true}),
		},
	}
}

// identitySchema is the resource identity (Terraform 1.12+): the
// project and the config id.
func identitySchema() identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"project_id": identityschema.StringAttribute{
				OptionalForImport: true,
				Description:       `Project of the config: a project id or "@current". Defaults to the provider's project_id on import.`,
			},
			"id": identityschema.Int64Attribute{
				RequiredForImport: true,
				Description:       "Identifier of the config.",
			},
		},
	}
}
