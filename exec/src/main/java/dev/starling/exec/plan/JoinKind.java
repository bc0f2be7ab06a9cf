package dev.starling.exec.plan;

/**
 * SEMI and ANTI keep the probe rows that have (have no) match and output only the probe columns.
 * ANTI follows NOT EXISTS semantics: a probe row whose key is NULL has no match and is kept.
 */
public enum JoinKind { INNER, LEFT, SEMI, ANTI }
