// Package provider is the pipeline provider: its configuration and the
// registration of every construct, once per collection kind.
package provider

import (
	"context"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/configresource"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/datasources"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/job"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/order"
)

// Address is the provider's source address in the registry.
const Address = "registry.terraform.io/pipelinecfg/pipeline"

var (
	_ provider.Provider                   = (*pipelineProvider)(nil)
	_ provider.ProviderWithValidateConfig = (*pipelineProvider)(nil)
	_ provider.ProviderWithActions        = (*pipelineProvider)(nil)
	_ provider.ProviderWithListResources  = (*pipelineProvider)(nil)
)

type pipelineProvider struct {
	version    string  // set at build time, "dev" otherwise
	journalDir *string // where creates are journaled; nil: the working directory's
}

// Option changes how New builds the provider.
type Option func(*pipelineProvider)

// WithCreateJournal makes the provider journal its creates in dir ("": not at
// all): tests play several working directories in one process.
func WithCreateJournal(dir string) Option {
	return func(p *pipelineProvider) { p.journalDir = &dir }
}

// New returns a constructor of the provider for the given version.
func New(version string, opts ...Option) func() provider.Provider {
	return func() provider.Provider {
		p := &pipelineProvider{version: version}
		for _, o := range opts {
			o(p)
		}
		return p
	}
}

// Metadata implements provider.Provider.
func (p *pipelineProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = framework.ProviderTypeName
	resp.Version = p.version
}

// Schema implements provider.Provider.
func (p *pipelineProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages the plugin configs of PostHog projects (transformations and import apps). " +
			"The settings and environment variables are the official PostHog provider's.",
		Attributes: map[string]schema.Attribute{
			"host": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Base URL of PostHog, e.g. `https://eu.posthog.com`. Defaults to `" + envHost +
					"`, then `" + defaultHost + "`. Plain `http` is accepted for loopback hosts only, unless " +
					"`allow_insecure_http` is set.",
			},
			"api_key": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "Personal API key, with the `plugin:read` scope to plan and `plugin:write` to " +
					"apply. Defaults to `" + envAPIKey + "`.",
				Validators: []validator.String{notBlankValidator},
			},
			"project_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Default project of every resource and data source: its id or `@current` " +
					"(the key owner's current project). Defaults to `" + envProjectID + "`.",
				Validators: []validator.String{framework.ProjectIDValidator()},
			},
			"max_retries": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: "How often a request is retried after a 502, 503, 504 or a passing network error (a " +
					"host that does not exist or a refused certificate fails at once; an attempt left unanswered past " +
					"`request_timeout` is retried once); a create only when it surely did not arrive. Defaults to `" +
					strconv.Itoa(client.DefaultMaxRetries) + "`.",
				Validators: []validator.Int64{int64validator.Between(0, maxMaxRetries)},
			},
			"request_timeout": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Time limit of one HTTP attempt (`30s`, `2m`). Defaults to `" +
					defaultRequestTimeout.String() + "`; a resource's `timeouts` bound a whole operation. An attempt " +
					"left unanswered is retried once, and once two attempts in a row went unanswered the run sends the " +
					"host no more requests: a host that never answers fails a plan in about twice this time.",
				Validators: []validator.String{durationValidator},
			},
			"requests_per_minute": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: "Most requests per minute, under PostHog's 480 per key. After a 429 the " +
					"provider waits as long as PostHog asks and slows down, then speeds up again. `0` sends " +
					"requests unpaced. Defaults to `" + strconv.Itoa(defaultRequestsPerMinute) + "`.",
				Validators: []validator.Int64{int64validator.AtLeast(0)},
			},
			"retry_wait_max": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Longest wait before retrying a 502, 503, 504 or a network error (`30s`, " +
					"`500ms`). A 429 always waits as long as PostHog asks. Defaults to `" +
					client.DefaultRetryWaitMax.String() + "`.",
				Validators: []validator.String{durationValidator},
			},
			"allow_insecure_http": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Allow plain `http` to a host that is not loopback. The API key would " +
					"travel unencrypted: use it on a trusted network only.",
			},
		},
	}
}

// ValidateConfig implements provider.ProviderWithValidateConfig: the host,
// whose plain http depends on allow_insecure_http (unknown yet: allowed).
func (p *pipelineProvider) ValidateConfig(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || !framework.IsSet(cfg.Host) {
		return
	}
	allowHTTP := cfg.AllowInsecureHTTP.ValueBool() || cfg.AllowInsecureHTTP.IsUnknown()
	if err := client.CheckHost(cfg.Host.ValueString(), allowHTTP); err != nil {
		resp.Diagnostics.AddAttributeError(hostPath, "Invalid host", err.Error())
	}
}

// Resources implements provider.Provider: every construct is written once
// and registered per collection kind.
func (p *pipelineProvider) Resources(_ context.Context) []func() resource.Resource {
	return perKind(configresource.New, order.New, job.NewResource)
}

// DataSources implements provider.Provider.
func (p *pipelineProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return perKind(datasources.NewConfig, datasources.NewConfigs, datasources.NewFrontend, datasources.NewPlugins)
}

// Actions implements provider.ProviderWithActions (Terraform 1.14+).
func (p *pipelineProvider) Actions(_ context.Context) []func() action.Action {
	return perKind(job.NewAction)
}

// ListResources implements provider.ProviderWithListResources (Terraform
// 1.14+, terraform query).
func (p *pipelineProvider) ListResources(_ context.Context) []func() list.ListResource {
	return perKind(configresource.NewList)
}

// perKind returns the constructors that news make for each kind.
func perKind[T any](news ...func(framework.Kind) func() T) []func() T {
	var out []func() T
	for _, k := range framework.Kinds() {
		for _, n := range news {
			out = append(out, n(k))
		}
	}
	return out
}
