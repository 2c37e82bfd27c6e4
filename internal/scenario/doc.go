// Package scenario generates what the live service and its users can
// produce (plugin catalogs, configurations of the config resources, changes
// made on the service to every field, settings and secrets included, plugin
// upgrades, imports, order resources over the configs) on every version of
// the service that has the API (starting at B, C or D, which store configs,
// and moving on to later ones up to E2026, with config ids that are the
// catalog's plugin ids), and drives the provider through them as Terraform
// would: in one to three workspaces of one working directory sharing the
// project, with whole, targeted and -refresh=false plans and applies,
// applies killed at a request boundary (Terraform alone, or its provider
// too) and applied again at once, configs let go of by `terraform state
// rm` or a removed block and imported into another state, and the working
// directory reached through a symlink, by its real path, or moved. After
// every step it checks that:
//
//   - an apply succeeds exactly when the service, at its version, accepts
//     the values, and the next plan is empty;
//   - the service changes only as the plan says: a config outside the
//     apply's plan is unchanged field by field, one in it differs only
//     where the plan showed a change (each settings key on its own; secrets
//     only with a new secret_config_wo_version, and then as it says); an
//     order resource's apply moves every config of the project, named or
//     not, only to the order its plan's orders show;
//   - no two resources, in any workspace, hold one config, and the service
//     lists only configs a resource holds, or that the user let go of:
//     after a killed apply the next adopts what it created and never gave
//     Terraform (with a warning), and names in a warning any config a
//     create whose answer the killed provider never got made, and any that
//     Terraform got and did not keep (unless its plan is refused, as when
//     the provider has since learnt that the service drops the filters
//     configured: the create journal keeps them for an apply that plans); a
//     create that succeeded made a new config or adopted one with a
//     warning, never took one silently;
//   - no config is replaced without cause, and the requests stay within the
//     performance guide's budget.
//
// The generators use pgregory.net/rapid, which shrinks a failing scenario to
// a smaller one and replays it by seed. A failure prints the workspaces'
// configurations as HCL beside the plugin catalog and the steps. The tests
// run the state machine at the protocol level (acctest.Core) against an
// in-process local API (or a live instance, with a bounded number of
// creates), a sample of generated configurations through the terraform
// binary, and generated scripts of the same steps through it, with the
// provider as a process of its own.
package scenario
