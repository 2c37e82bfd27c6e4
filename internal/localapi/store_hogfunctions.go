package localapi

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// hogTableColumns define the hog_functions table. execution_order is null
// when a function has none (PostHog's column is nullable); hog and
// inputs_schema are null in rows stored while they were the template's;
// icon_url is null when the function has none.
const hogTableColumns = `
	seq              INTEGER PRIMARY KEY AUTOINCREMENT,
	id               TEXT NOT NULL UNIQUE,
	team_id          INTEGER NOT NULL,
	plugin_id        INTEGER NOT NULL,
	type             TEXT NOT NULL,
	name             TEXT NOT NULL,
	description      TEXT NOT NULL,
	enabled          INTEGER NOT NULL,
	template_id      TEXT NOT NULL,
	source_config_id INTEGER,
	inputs           TEXT NOT NULL,
	filters          TEXT NOT NULL,
	execution_order  INTEGER,
	created_at       INTEGER NOT NULL,
	updated_at       INTEGER NOT NULL,
	deleted          INTEGER NOT NULL DEFAULT 0,
	hog              TEXT,
	inputs_schema    TEXT,
	icon_url         TEXT
`

const hogColumns = `id, team_id, plugin_id, type, name, description, enabled, template_id, source_config_id, inputs, filters, execution_order, created_at, updated_at, deleted, hog, inputs_schema, icon_url`

const hogPlaceholders = `?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?`

// firstHogColumns are the columns of the table before the hog function
// API: a database file written then is upgraded when it is opened.
const firstHogColumns = `seq, id, team_id, plugin_id, type, name, description, enabled, template_id, source_config_id, inputs, filters, execution_order, created_at`

// hogStmts are the statements of the hog function API.
type hogStmts struct {
	hogGet, hogSave, hogPage, hogCount, hogMaxOrder, hogEnabledTransformations, hogCovering, hogTemplateUsage *sql.Stmt
}

// statement is a statement to prepare into dst.
type statement = struct {
	dst **sql.Stmt
	q   string
}

// hogWhere selects a project's hog functions that are not deleted, of the
// types in ?2 (a JSON array; null: every type), the enabled flag ?3 (null:
// either) and the id ?4 (null: any).
const hogWhere = ` WHERE team_id = ?1 AND deleted = 0 AND (?2 IS NULL OR type IN (SELECT value FROM json_each(?2))) AND (?3 IS NULL OR enabled = ?3)
	AND (?4 IS NULL OR id = ?4)`

func (st *store) hogStatements() []statement {
	return []statement{
		{&st.hogGet, `SELECT ` + hogColumns + ` FROM hog_functions WHERE team_id = ? AND id = ?`},
		{&st.hogSave, `UPDATE hog_functions SET type = ?, name = ?, description = ?, enabled = ?, inputs = ?, filters = ?,
			execution_order = ?, updated_at = ?, deleted = ?, hog = ?, inputs_schema = ?, icon_url = ? WHERE id = ?`},
		// PostHog orders by execution_order (PostgreSQL puts nulls last),
		// then the newest update first; seq keeps pages stable.
		{&st.hogPage, `SELECT ` + hogColumns + ` FROM hog_functions` + hogWhere +
			` ORDER BY execution_order IS NULL, execution_order, updated_at DESC, seq LIMIT ?5 OFFSET ?6`},
		{&st.hogCount, `SELECT count(*) FROM hog_functions` + hogWhere},
		{&st.hogMaxOrder, `SELECT coalesce(max(execution_order), 0) FROM hog_functions WHERE team_id = ? AND type = 'transformation' AND deleted = 0`},
		{&st.hogEnabledTransformations, `SELECT count(*) FROM hog_functions WHERE team_id = ? AND type = 'transformation' AND deleted = 0 AND enabled = 1`},
		{&st.hogCovering, `SELECT count(*) FROM hog_functions WHERE team_id = ? AND template_id = ? AND type = ? AND enabled = 1 AND deleted = 0`},
		// The templates list orders by how many enabled functions, of every
		// project, use each template.
		{&st.hogTemplateUsage, `SELECT template_id, count(*) FROM hog_functions WHERE deleted = 0 AND enabled = 1 AND template_id != ''
			GROUP BY template_id`},
	}
}

// upgradeHogFunctions brings a hog_functions table written by an older
// local API to the current shape, keeping every row: one of the first
// shape (before the hog function API: no deleted, updated_at, hog nor
// inputs_schema, execution_order required) is rebuilt, updated_at being
// its created_at; one without icon_url gets the column.
func (st *store) upgradeHogFunctions(ctx context.Context) error {
	rows, err := st.conn.QueryContext(ctx, `SELECT name FROM pragma_table_info('hog_functions')`)
	if err != nil {
		return err
	}
	columns := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			_ = rows.Close()
			return err
		}
		columns[name] = true
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	if columns["deleted"] {
		if columns["icon_url"] {
			return nil
		}
		_, err := st.conn.ExecContext(ctx, `ALTER TABLE hog_functions ADD COLUMN icon_url TEXT`)
		return err
	}
	steps := []string{
		`BEGIN IMMEDIATE`,
		`ALTER TABLE hog_functions RENAME TO hog_functions_first`,
		`CREATE TABLE hog_functions (` + hogTableColumns + `)`,
		`INSERT INTO hog_functions (` + firstHogColumns + `, updated_at) SELECT ` + firstHogColumns + `, created_at FROM hog_functions_first`,
		`DROP TABLE hog_functions_first`,
		`COMMIT`,
	}
	for _, q := range steps {
		if _, err := st.conn.ExecContext(ctx, q); err != nil {
			_, _ = st.conn.ExecContext(ctx, `ROLLBACK`)
			return fmt.Errorf("upgrading hog_functions: %w", err)
		}
	}
	return nil
}

// addHogFunction stores hf in the write's transaction.
func (tx *storeTx) addHogFunction(hf *HogFunction) error {
	if hf.UpdatedAt.IsZero() {
		hf.UpdatedAt = hf.CreatedAt
	}
	_, err := tx.st.insertHog.ExecContext(tx.ctx, hf.ID, hf.Project, hf.Plugin, hf.Type, hf.Name, hf.Description, hf.Enabled,
		hf.TemplateID, nullInt(hf.SourceConfigID), string(hf.Inputs), string(hf.Filters), nullInt(hf.ExecutionOrder),
		hf.CreatedAt.UnixMicro(), hf.UpdatedAt.UnixMicro(), hf.Deleted, nullString(hf.Hog), nullJSON(hf.InputsSchema), nullString(hf.IconURL))
	return err
}

// hogFunction returns the project's hog function id, deleted or not, or
// nil.
func (tx *storeTx) hogFunction(team int64, id string) (*HogFunction, error) {
	hf, err := scanHogFunction(tx.st.hogGet.QueryRowContext(tx.ctx, team, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return &hf, err
}

// saveHogFunction writes hf's changeable fields and moves updated_at on.
func (tx *storeTx) saveHogFunction(hf *HogFunction) error {
	now := time.Now().UTC()
	if now.After(hf.UpdatedAt) {
		hf.UpdatedAt = now
	}
	_, err := tx.st.hogSave.ExecContext(tx.ctx, hf.Type, hf.Name, hf.Description, hf.Enabled, string(hf.Inputs), string(hf.Filters),
		nullInt(hf.ExecutionOrder), hf.UpdatedAt.UnixMicro(), hf.Deleted, nullString(hf.Hog), nullJSON(hf.InputsSchema), nullString(hf.IconURL), hf.ID)
	return err
}

// maxTransformationOrder is the highest execution_order of the project's
// transformations that are not deleted, 0 without one.
func (tx *storeTx) maxTransformationOrder(team int64) (int64, error) {
	var n int64
	err := tx.st.hogMaxOrder.QueryRowContext(tx.ctx, team).Scan(&n)
	return n, err
}

// enabledTransformations counts the project's enabled transformations
// that are not deleted.
func (tx *storeTx) enabledTransformations(team int64) (int64, error) {
	var n int64
	err := tx.st.hogEnabledTransformations.QueryRowContext(tx.ctx, team).Scan(&n)
	return n, err
}

// hogFilter narrows a list of hog functions: types (none: every type),
// enabled (nil: either) and id ("": any).
type hogFilter struct {
	types   []string
	enabled *bool
	id      string
}

// hogFunctionPage returns a page of the project's hog functions that are
// not deleted, and how many there are, read together.
func (st *store) hogFunctionPage(ctx context.Context, team int64, f hogFilter, limit, offset int64) ([]HogFunction, int64, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	var types, enabled, id any
	if f.id != "" {
		id = f.id
	}
	if len(f.types) > 0 {
		raw, err := json.Marshal(f.types)
		if err != nil {
			return nil, 0, err
		}
		types = string(raw)
	}
	if f.enabled != nil {
		enabled = *f.enabled
	}
	var count int64
	if err := st.hogCount.QueryRowContext(ctx, team, types, enabled, id).Scan(&count); err != nil {
		return nil, 0, err
	}
	if count == 0 || offset >= count {
		return []HogFunction{}, count, nil
	}
	hfs, err := queryAll(ctx, st.hogPage, scanHogFunction, team, types, enabled, id, limit, offset)
	return hfs, count, err
}

func (st *store) hogFunctions(ctx context.Context) ([]HogFunction, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return queryAll(ctx, st.hogs, scanHogFunction)
}

func scanHogFunction(row scanner) (HogFunction, error) {
	var hf HogFunction
	var source, order sql.NullInt64
	var inputs, filters string
	var hog, schema, icon sql.NullString
	var created, updated int64
	err := row.Scan(&hf.ID, &hf.Project, &hf.Plugin, &hf.Type, &hf.Name, &hf.Description, &hf.Enabled,
		&hf.TemplateID, &source, &inputs, &filters, &order, &created, &updated, &hf.Deleted, &hog, &schema, &icon)
	if source.Valid {
		hf.SourceConfigID = &source.Int64
	}
	if order.Valid {
		hf.ExecutionOrder = &order.Int64
	}
	if hog.Valid {
		hf.Hog = &hog.String
	}
	if schema.Valid {
		hf.InputsSchema = json.RawMessage(schema.String)
	}
	if icon.Valid {
		hf.IconURL = &icon.String
	}
	hf.Inputs, hf.Filters = json.RawMessage(inputs), json.RawMessage(filters)
	hf.CreatedAt, hf.UpdatedAt = time.UnixMicro(created).UTC(), time.UnixMicro(updated).UTC()
	return hf, err
}

func (st *store) resetHogFunctions(ctx context.Context) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	_, err := st.clearHogs.ExecContext(ctx)
	return err
}

func nullInt(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// canonicalUUID is raw as PostHog's UUID primary keys look it up: any form
// Python's UUID() reads, written lower case with hyphens; "" when raw is not
// a UUID.
func canonicalUUID(raw string) string {
	h := uuidHex(raw)
	if h == "" {
		return ""
	}
	return strings.Join([]string{h[:8], h[8:12], h[12:16], h[16:20], h[20:]}, "-")
}

// findHogFunction returns the project's hog function id, deleted or not,
// or nil.
func (st *store) findHogFunction(ctx context.Context, team int64, id string) (*HogFunction, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	hf, err := scanHogFunction(st.hogGet.QueryRowContext(ctx, team, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return &hf, err
}

// covered reports whether the project has an enabled hog function of the
// template and type that is not deleted: the bulk migration then makes
// none.
func (tx *storeTx) covered(team int64, templateID, typ string) (bool, error) {
	var n int64
	err := tx.st.hogCovering.QueryRowContext(tx.ctx, team, templateID, typ).Scan(&n)
	return n > 0, err
}

// templateUsage counts the enabled hog functions that are not deleted, of
// every project, by template.
func (st *store) templateUsage(ctx context.Context) (map[string]int64, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	rows, err := st.hogTemplateUsage.QueryContext(ctx)
	if err != nil {
		return nil, err
	}
	usage := map[string]int64{}
	for rows.Next() {
		var id string
		var n int64
		if err := rows.Scan(&id, &n); err != nil {
			_ = rows.Close()
			return nil, err
		}
		usage[id] = n
	}
	return usage, errors.Join(rows.Err(), rows.Close())
}
