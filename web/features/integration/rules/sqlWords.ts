/**
 * Words the SQL editor completes: keywords and the broker's function library grouped as the
 * broker documents it (emqx_rule_funcs: math, type checks and conversions, string, map, array,
 * hash, compression, bits, encoding, time and date, others), each with its arguments.
 */
import type { Completion } from '../../../ui/CodeEditor.tsx';
import { SQL_KEYWORDS } from '../../../lib/sqlTokens.ts';

export const FUNCTION_GROUPS: Record<string, string> = {
  math: 'abs(x) acos(x) acosh(x) asin(x) asinh(x) atan(x) atanh(x) ceil(x) cos(x) cosh(x) exp(x) floor(x) fmod(x,y) log(x) log10(x) log2(x) power(x,y) round(x) sin(x) sinh(x) sqrt(x) tan(x) tanh(x) random() div(x,y) mod(x,y)',
  types: 'is_null(v) is_not_null(v) is_null_var(v) is_not_null_var(v) is_str(v) is_bool(v) is_int(v) is_float(v) is_num(v) is_map(v) is_array(v)',
  convert: 'str(v) str_utf8(v) str_utf16_le(v) bool(v) int(v) float(v) float(v,n) float2str(x,n) map(v) bin2hexstr(b) hexstr2bin(s) int2hexstr(i)',
  string: 'lower(s) upper(s) trim(s) ltrim(s) rtrim(s) reverse(s) strlen(s) substr(s,start) substr(s,start,len) split(s,sep) split(s,sep,opt) concat(a,b) tokens(s,sep) sprintf(fmt,...) pad(s,len) replace(s,from,to) regex_match(s,re) regex_replace(s,re,to) regex_extract(s,re) ascii(c) find(s,p) join_to_string(sep,arr) unescape(s)',
  map: 'map_get(key,map) map_get(key,map,default) map_put(key,val,map) map_keys(map) map_values(map) map_to_entries(map) mget(key,map) mput(key,val,map)',
  array: 'nth(n,arr) length(arr) sublist(len,arr) sublist(start,len,arr) first(arr) last(arr) contains(v,arr)',
  hash: 'md5(s) sha(s) sha256(s)',
  compress: 'gzip(b) gunzip(b) zip(b) unzip(b) zip_compress(b) zip_uncompress(b)',
  bits: 'bitnot(x) bitand(x,y) bitor(x,y) bitxor(x,y) bitsl(x,n) bitsr(x,n) bitsize(b) subbits(b,len) subbits(b,start,len)',
  encoding: 'base64_encode(b) base64_decode(s) json_decode(s) json_encode(v) term_encode(v) term_decode(b)',
  time: 'now_timestamp() now_timestamp(unit) now_rfc3339() now_rfc3339(unit) unix_ts_to_rfc3339(ts) unix_ts_to_rfc3339(ts,unit) rfc3339_to_unix_ts(s) format_date(unit,offset,fmt) date_to_unix_ts(unit,fmt,s) timezone_to_offset_seconds(tz)',
  other: 'coalesce(a,b) uuid_v4() uuid_v4_no_hyphen() jq(program,json) jq(program,json,timeout) getenv(name)',
};

/** Every function once (the first signature), with its group and arguments as the detail. */
export const FUNCTIONS: Completion[] = (() => {
  const seen = new Map<string, Completion>();
  for (const [group, list] of Object.entries(FUNCTION_GROUPS)) {
    for (const signature of list.split(' ')) {
      const name = signature.slice(0, signature.indexOf('('));
      if (!seen.has(name)) seen.set(name, { label: name, kind: 'function', detail: `${signature.slice(name.length)} · ${group}` });
    }
  }
  return [...seen.values()];
})();

const KEYWORDS: Completion[] = SQL_KEYWORDS.map((k) => ({ label: k, kind: 'keyword' }));

/** Completions for the editor: the event columns known from `/rule_events`, then functions and keywords. */
export function completions(columns: string[]): Completion[] {
  const own = [...new Set(columns)].map((label): Completion => ({ label, kind: 'column' }));
  return [...own, ...FUNCTIONS, ...KEYWORDS];
}
