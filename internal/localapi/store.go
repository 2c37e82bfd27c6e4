package localapi

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // pure-Go SQLite driver: no cgo
)

// store keeps configs and job runs in SQLite. It holds a single connection
// behind a mutex: that serialises every read-modify-write (no lost update),
// makes an in-memory database work (each connection of ":memory:" would be
// a database of its own), and is fast enough: a statement takes
// microseconds, the HTTP round trip around it much longer.
type store struct {
	mu   sync.Mutex
	db   *sql.DB
	conn *sql.Conn

	insert, get, save, disable, enabled, setOrder *sql.Stmt
	insertJob, jobs, clearJobs                    *sql.Stmt
	// page and count are per collection: the collection is a fixed set of
	// plugin IDs, written into the statement.
	page, count map[string]*sql.Stmt
}

const recordColumns = `id, team_id, plugin_id, enabled, ord, name, description, deleted, filters, config, created_at, updated_at`

const schema = `
CREATE TABLE IF NOT EXISTS plugin_configs (
	id          INTEGER PRIMARY KEY AUTOINCREMENT, -- one sequence for both collections, never reused
	team_id     INTEGER NOT NULL,
	plugin_id   INTEGER NOT NULL,
	enabled     INTEGER NOT NULL,
	ord         INTEGER NOT NULL,
	name        TEXT,
	description TEXT,
	deleted     INTEGER NOT NULL,
	filters     TEXT,
	config      TEXT NOT NULL,
	created_at  INTEGER NOT NULL,
	updated_at  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS plugin_configs_team_order ON plugin_configs (team_id, ord, plugin_id, id);
CREATE TABLE IF NOT EXISTS job_runs (
	id        INTEGER PRIMARY KEY AUTOINCREMENT,
	config_id INTEGER NOT NULL,
	team_id   INTEGER NOT NULL,
	type      TEXT NOT NULL,
	payload   TEXT NOT NULL,
	operation TEXT NOT NULL,
	at        INTEGER NOT NULL
);
`

// openStore opens (and creates) the database; path "" is in memory.
// collections maps a collection name to the plugin IDs it shows.
func openStore(path string, collections map[string][]int64) (*store, error) {
	dsn := ":memory:"
	if path != "" {
		dsn = path
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("open %s: %w", dsn, err), db.Close())
	}
	st := &store{db: db, conn: conn, page: map[string]*sql.Stmt{}, count: map[string]*sql.Stmt{}}
	if err := st.init(ctx, path != "", collections); err != nil {
		return nil, errors.Join(fmt.Errorf("open %s: %w", dsn, err), st.close())
	}
	return st, nil
}

func (st *store) init(ctx context.Context, file bool, collections map[string][]int64) error {
	if file {
		// WAL with synchronous=FULL: every commit is synced to disk before
		// the write is answered, so an acknowledged write survives a killed
		// process and a power loss alike, as on the live service.
		// (synchronous=NORMAL, three times faster here, may lose the last
		// commits on a power loss.) busy_timeout: wait for another
		// process's lock instead of failing.
		for _, p := range []string{"PRAGMA busy_timeout=5000", "PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL"} {
			if _, err := st.conn.ExecContext(ctx, p); err != nil {
				return err
			}
		}
	}
	if _, err := st.conn.ExecContext(ctx, schema); err != nil {
		return err
	}
	prep := func(dst **sql.Stmt, q string) error {
		s, err := st.conn.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("prepare %q: %w", q, err)
		}
		*dst = s
		return nil
	}
	stmts := []struct {
		dst **sql.Stmt
		q   string
	}{
		{&st.insert, `INSERT INTO plugin_configs (team_id, plugin_id, enabled, ord, name, description, deleted, filters, config, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`},
		{&st.get, `SELECT ` + recordColumns + ` FROM plugin_configs WHERE id = ? AND team_id = ?`},
		{&st.save, `UPDATE plugin_configs SET enabled = ?, ord = ?, name = ?, description = ?, deleted = ?, filters = ?, config = ?, updated_at = ? WHERE id = ?`},
		{&st.disable, `UPDATE plugin_configs SET enabled = 0, updated_at = ? WHERE id = ? AND team_id = ?`},
		{&st.enabled, `SELECT ` + recordColumns + ` FROM plugin_configs WHERE team_id = ? AND enabled = 1 ORDER BY ord, plugin_id, id`},
		{&st.setOrder, `UPDATE plugin_configs SET ord = ?, updated_at = ? WHERE id = ?`},
		{&st.insertJob, `INSERT INTO job_runs (config_id, team_id, type, payload, operation, at) VALUES (?, ?, ?, ?, ?, ?)`},
		{&st.jobs, `SELECT config_id, team_id, type, payload, operation, at FROM job_runs ORDER BY id`},
		{&st.clearJobs, `DELETE FROM job_runs`},
	}
	for _, s := range stmts {
		if err := prep(s.dst, s.q); err != nil {
			return err
		}
	}
	for name, ids := range collections {
		in := pluginIn(ids)
		var page, count *sql.Stmt
		if err := prep(&page, `SELECT `+recordColumns+` FROM plugin_configs WHERE team_id = ? AND `+in+` ORDER BY ord, plugin_id, id LIMIT ? OFFSET ?`); err != nil {
			return err
		}
		if err := prep(&count, `SELECT count(*) FROM plugin_configs WHERE team_id = ? AND `+in); err != nil {
			return err
		}
		st.page[name], st.count[name] = page, count
	}
	return nil
}

// pluginIn is the SQL condition "plugin_id is one of ids".
func pluginIn(ids []int64) string {
	if len(ids) == 0 {
		return "0"
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return "plugin_id IN (" + strings.Join(parts, ", ") + ")"
}

func (st *store) close() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	var errs []error
	if st.conn != nil {
		errs = append(errs, st.conn.Close())
		st.conn = nil
	}
	errs = append(errs, st.db.Close())
	return errors.Join(errs...)
}

type scanner interface{ Scan(dest ...any) error }

func scanRecord(s scanner) (*record, error) {
	var rec record
	var name, desc, filters sql.NullString
	var config string
	err := s.Scan(&rec.ID, &rec.Team, &rec.Plugin, &rec.Enabled, &rec.Order, &name, &desc, &rec.Deleted,
		&filters, &config, &rec.CreatedAt, &rec.UpdatedAt)
	if err != nil {
		return nil, err
	}
	if name.Valid {
		rec.Name = &name.String
	}
	if desc.Valid {
		rec.Description = &desc.String
	}
	if filters.Valid {
		rec.Filters = json.RawMessage(filters.String)
	}
	rec.Config = json.RawMessage(config)
	return &rec, nil
}

func nullString(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

func nullJSON(raw json.RawMessage) any {
	if raw == nil {
		return nil
	}
	return string(raw)
}

func nowMicros() int64 { return time.Now().UnixMicro() }

// create stores rec and sets its ID and timestamps.
func (st *store) create(ctx context.Context, rec *record) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	rec.CreatedAt = nowMicros()
	rec.UpdatedAt = rec.CreatedAt
	res, err := st.insert.ExecContext(context.WithoutCancel(ctx), rec.Team, rec.Plugin, rec.Enabled, rec.Order, nullString(rec.Name),
		nullString(rec.Description), rec.Deleted, nullJSON(rec.Filters), string(rec.Config), rec.CreatedAt, rec.UpdatedAt)
	if err != nil {
		return err
	}
	rec.ID, err = res.LastInsertId()
	return err
}

// find returns the project's record id, or nil.
func (st *store) find(ctx context.Context, team, id int64) (*record, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.findLocked(ctx, team, id)
}

func (st *store) findLocked(ctx context.Context, team, id int64) (*record, error) {
	rec, err := scanRecord(st.get.QueryRowContext(ctx, id, team))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return rec, err
}

// update applies change to the project's record id and saves it, all under
// the store's lock so that concurrent updates never lose one another. A nil
// record means there is none; change may refuse with an apiError.
func (st *store) update(ctx context.Context, team, id int64, change func(*record) *apiError) (*record, *apiError, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	ctx = context.WithoutCancel(ctx) // a write, once begun, is finished
	rec, err := st.findLocked(ctx, team, id)
	if err != nil || rec == nil {
		return nil, nil, err
	}
	if e := change(rec); e != nil {
		return nil, e, nil
	}
	rec.UpdatedAt = max(nowMicros(), rec.UpdatedAt)
	_, err = st.save.ExecContext(ctx, rec.Enabled, rec.Order, nullString(rec.Name), nullString(rec.Description),
		rec.Deleted, nullJSON(rec.Filters), string(rec.Config), rec.UpdatedAt, rec.ID)
	if err != nil {
		return nil, nil, err
	}
	return rec, nil, nil
}

// disableRecord sets enabled=false on the project's record id, whatever its
// collection; it reports whether the record exists.
func (st *store) disableRecord(ctx context.Context, team, id int64) (bool, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	res, err := st.disable.ExecContext(context.WithoutCancel(ctx), nowMicros(), id, team)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// list returns one page of the project's records in a collection and the
// collection's total count, read together.
func (st *store) list(ctx context.Context, coll string, team, limit, offset int64) ([]*record, int64, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	var count int64
	if err := st.count[coll].QueryRowContext(ctx, team).Scan(&count); err != nil {
		return nil, 0, err
	}
	if count == 0 || offset >= count {
		return nil, count, nil
	}
	rows, err := st.page[coll].QueryContext(ctx, team, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	recs, err := scanRecords(rows)
	return recs, count, err
}

func scanRecords(rows *sql.Rows) ([]*record, error) {
	defer rows.Close()
	var recs []*record
	for rows.Next() {
		rec, err := scanRecord(rows)
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	return recs, rows.Err()
}

// reorder sets new orders on enabled records of the project in one
// transaction and returns every enabled record of the project. decide gets
// the enabled records by ID and returns the orders to write, or an error
// that rolls everything back.
func (st *store) reorder(ctx context.Context, team int64, decide func(map[int64]*record) (map[int64]int64, *apiError)) ([]*record, *apiError, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	// Once begun, a rearrange runs to its end even if the client goes away.
	ctx = context.WithoutCancel(ctx)
	if _, err := st.conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return nil, nil, err
	}
	committed := false
	defer func() {
		if !committed {
			_, _ = st.conn.ExecContext(ctx, "ROLLBACK")
		}
	}()
	rows, err := st.enabled.QueryContext(ctx, team)
	if err != nil {
		return nil, nil, err
	}
	recs, err := scanRecords(rows)
	if err != nil {
		return nil, nil, err
	}
	byID := make(map[int64]*record, len(recs))
	for _, r := range recs {
		byID[r.ID] = r
	}
	orders, e := decide(byID)
	if e != nil {
		return nil, e, nil
	}
	now := nowMicros()
	for id, ord := range orders {
		rec := byID[id]
		if rec == nil || rec.Order == ord {
			continue
		}
		rec.Order, rec.UpdatedAt = ord, max(now, rec.UpdatedAt)
		if _, err := st.setOrder.ExecContext(ctx, ord, rec.UpdatedAt, id); err != nil {
			return nil, nil, err
		}
	}
	if _, err := st.conn.ExecContext(ctx, "COMMIT"); err != nil {
		return nil, nil, err
	}
	committed = true
	sortRecords(recs)
	return recs, nil, nil
}

// addJob records a job run.
func (st *store) addJob(ctx context.Context, j JobRun) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	_, err := st.insertJob.ExecContext(context.WithoutCancel(ctx), j.ConfigID, j.Project, j.Type, string(j.Payload), j.Operation, j.At.UnixMicro())
	return err
}

func (st *store) jobRuns(ctx context.Context) ([]JobRun, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	rows, err := st.jobs.QueryContext(ctx)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	runs := []JobRun{}
	for rows.Next() {
		var j JobRun
		var payload string
		var at int64
		if err := rows.Scan(&j.ConfigID, &j.Project, &j.Type, &payload, &j.Operation, &at); err != nil {
			return nil, err
		}
		j.Payload, j.At = json.RawMessage(payload), time.UnixMicro(at).UTC()
		runs = append(runs, j)
	}
	return runs, rows.Err()
}

func (st *store) resetJobs(ctx context.Context) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	_, err := st.clearJobs.ExecContext(ctx)
	return err
}
