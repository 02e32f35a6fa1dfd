// The demo customer-care desk (issue 15): customers, open and closed support sessions with
// their timelines, in Harbor Demo Fleet (acc_harbor_demo, the simulator's radios HD-0001…5).
// Idempotent: fixed ids and ON CONFLICT DO NOTHING; rows about a radio only when it exists.
import { sqlValue } from "./seed-sql.mjs";

const ACCOUNT = "acc_harbor_demo";
const day = 86_400_000;
/** A moment `daysAgo` days before today, at `hour` UTC. */
const at = (daysAgo, hour = 9) => new Date(Date.now() - (Date.now() % day) - daysAgo * day + hour * 3_600_000).toISOString();

export const deskCustomers = [
  { id: "fcc_demo_rosa", name: "Rosa Díaz", phone: "+1 555 0101", email: "rosa.diaz@example.com", radios: ["HD-0004"] },
  { id: "fcc_demo_marc", name: "Marc Tremblay", phone: "+1 555 0102", email: "marc.tremblay@example.com", radios: ["HD-0005"] },
  {
    id: "fcc_demo_joao",
    name: "João Silva",
    phone: "+1 555 0103",
    email: "joao.silva@example.com",
    radios: ["HD-0002", "HD-0003"],
  },
];

export const deskSessions = [
  {
    id: "fcs_demo_noaudio",
    customer: "fcc_demo_rosa",
    subject: "No audio on channel 2",
    category: "Audio",
    priority: "high",
    status: "open",
    assignee: "usr_agent",
    uid: "HD-0004",
    daysAgo: 3,
  },
  {
    id: "fcs_demo_battery",
    customer: "fcc_demo_marc",
    subject: "Battery drains overnight",
    category: "Battery",
    priority: "medium",
    status: "waiting",
    assignee: "usr_agent2",
    uid: "HD-0005",
    daysAgo: 6,
  },
  {
    id: "fcs_demo_coverage",
    customer: "fcc_demo_joao",
    subject: "Drops out in the bus garage",
    category: "Coverage",
    priority: "urgent",
    status: "in-progress",
    assignee: "usr_agent",
    uid: "HD-0002",
    daysAgo: 1,
  },
  {
    id: "fcs_demo_closed1",
    customer: "fcc_demo_rosa",
    subject: "Radio would not power on",
    category: "Battery",
    priority: "low",
    status: "closed",
    assignee: "usr_agent2",
    uid: "HD-0004",
    daysAgo: 9,
    closedDaysAgo: 8,
  },
  {
    id: "fcs_demo_closed2",
    customer: "fcc_demo_joao",
    subject: "Wrong talk group after update",
    category: "Configuration",
    priority: "medium",
    status: "closed",
    assignee: "usr_agent",
    uid: "HD-0003",
    daysAgo: 5,
    closedDaysAgo: 4,
  },
];

function row(table, values) {
  const columns = Object.keys(values);
  return `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => sqlValue(values[c])).join(", ")}) ON CONFLICT DO NOTHING;`;
}

/** A row about a radio, written only when the radio was seeded (its seat was free). */
function ifRadio(table, values, uid) {
  const columns = Object.keys(values);
  return `INSERT INTO ${table} (${columns.join(", ")}) SELECT ${columns.map((c) => sqlValue(values[c])).join(", ")}
    WHERE EXISTS (SELECT 1 FROM devices WHERE uid = ${sqlValue(uid)}) ON CONFLICT DO NOTHING;`;
}

export function deskStatements() {
  const statements = [];
  for (const c of deskCustomers) {
    statements.push(row("fc_customers", { id: c.id, account_id: ACCOUNT, name: c.name, phone: c.phone, email: c.email }));
    for (const uid of c.radios) statements.push(ifRadio("fc_customer_radios", { customer_id: c.id, uid }, uid));
  }
  for (const s of deskSessions) {
    const opened = at(s.daysAgo);
    const closed = s.closedDaysAgo === undefined ? null : at(s.closedDaysAgo, 15);
    statements.push(
      row("fc_sessions", {
        id: s.id,
        account_id: ACCOUNT,
        customer_id: s.customer,
        subject: s.subject,
        category: s.category,
        priority: s.priority,
        status: s.status,
        assignee_id: s.assignee,
        opened_by: "agent@example.com",
        created_at: opened,
        updated_at: closed ?? opened,
        closed_at: closed,
      }),
      ifRadio("fc_session_devices", { session_id: s.id, uid: s.uid }, s.uid),
      row("fc_timeline", {
        id: `${s.id}_opened`,
        session_id: s.id,
        kind: "opened",
        actor_email: "agent@example.com",
        body: s.subject,
        created_at: opened,
      }),
      row("fc_timeline", {
        id: `${s.id}_note`,
        session_id: s.id,
        kind: "note",
        actor_email: "agent@example.com",
        body: "Caller describes the problem; asked for the radio's serial number.",
        created_at: at(s.daysAgo, 10),
      }),
    );
    if (closed)
      statements.push(
        row("fc_timeline", {
          id: `${s.id}_closed`,
          session_id: s.id,
          kind: "closed",
          actor_email: "agent2@example.com",
          body: "in-progress → closed",
          created_at: closed,
        }),
      );
  }
  return statements;
}
