// Package scenario generates what the live service and its users can
// produce (plugin catalogs, configurations of the config resources, changes
// made on the service, plugin upgrades, imports) and drives the provider
// through them as Terraform would, checking after every step that the
// provider converges: an apply succeeds exactly when the service accepts the
// values, the next plan is empty, no config is replaced or created twice,
// and the requests stay within the performance guide's budget.
//
// The generators use pgregory.net/rapid, which shrinks a failing scenario to
// a minimal one and replays it by seed. A failure prints the scenario's
// configuration as HCL beside its plugin catalog. The tests run the state
// machine at the protocol level against an in-process local API (or a live
// instance, with a bounded number of creates), and a sample of generated
// configurations through the terraform binary.
package scenario
