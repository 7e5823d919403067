/**
 * SQL examples offered by the editor, written after the broker's documented cases: fields of a
 * topic's messages, two client events in one rule, FOREACH with and without DO/INCASE, CASE
 * WHEN, and nested array indexing (1-based).
 */
export interface SqlTemplate {
  /** i18n key of the title. */
  title: string;
  sql: string;
}

export const SQL_TEMPLATES: SqlTemplate[] = [
  { title: 'rules.tplSelect', sql: 'SELECT\n  payload.temp AS temp,\n  clientid\nFROM\n  "sensors/#"\nWHERE\n  payload.temp > 30' },
  {
    title: 'rules.tplEvents',
    sql: "SELECT\n  clientid,\n  CASE WHEN event = 'client.connected' THEN 'online' ELSE 'offline' END AS state\nFROM\n  \"$events/client_connected\", \"$events/client_disconnected\"",
  },
  { title: 'rules.tplForeach', sql: 'FOREACH\n  payload.readings\nFROM\n  "devices/+/batch"' },
  { title: 'rules.tplForeachDo', sql: 'FOREACH\n  payload.sensors AS s\nDO\n  s.name AS name,\n  s.value AS value\nINCASE\n  s.value > 10\nFROM\n  "devices/+/sensors"' },
  { title: 'rules.tplCase', sql: 'SELECT\n  CASE\n    WHEN payload.level > 100 THEN 100\n    WHEN payload.level < 0 THEN 0\n    ELSE payload.level\n  END AS level\nFROM\n  "tanks/#"' },
  { title: 'rules.tplIndex', sql: 'SELECT\n  payload.data[1].value AS first_value,\n  payload.data[1].ts AS first_ts\nFROM\n  "t/#"' },
];
