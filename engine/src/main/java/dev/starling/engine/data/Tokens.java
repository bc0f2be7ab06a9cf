package dev.starling.engine.data;

import dev.starling.planner.sql.StarlingSqlException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tokens of a data statement (identifiers, quoted identifiers, numbers, string literals,
 * symbols), each with its offset so errors point at it, and a cursor over them.
 */
final class Tokens {
    enum Kind { WORD, QUOTED, NUMBER, STRING, SYMBOL, END }

    record Token(Kind kind, String text, int offset) {
        /** Unquoted words compare and name case-insensitively (lower case), quoted ones as written. */
        String name() {
            return kind == Kind.WORD ? text.toLowerCase(Locale.ROOT) : text;
        }

        boolean is(String keyword) {
            return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
        }
    }

    private final String sql;
    private final List<Token> tokens = new ArrayList<>();
    private int at;

    Tokens(String sql) {
        this.sql = sql;
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
                while (i < sql.length() && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 2;
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < sql.length() && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                    i++;
                }
                tokens.add(new Token(Kind.WORD, sql.substring(start, i), start));
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < sql.length() && Character.isDigit(sql.charAt(i + 1)))) {
                int start = i;
                while (i < sql.length() && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
                    i++;
                }
                tokens.add(new Token(Kind.NUMBER, sql.substring(start, i), start));
            } else if (c == '\'' || c == '"') {
                int start = i;
                StringBuilder text = new StringBuilder();
                i++;
                while (true) {
                    if (i >= sql.length()) {
                        throw error(start, "unterminated " + (c == '"' ? "quoted identifier" : "string"));
                    }
                    if (sql.charAt(i) == c) {
                        if (i + 1 < sql.length() && sql.charAt(i + 1) == c) {
                            text.append(c);
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    text.append(sql.charAt(i++));
                }
                tokens.add(new Token(c == '"' ? Kind.QUOTED : Kind.STRING, text.toString(), start));
            } else {
                tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), i));
                i++;
            }
        }
        tokens.add(new Token(Kind.END, "", sql.length()));
    }

    /** Every token, the END token last. */
    List<Token> all() {
        return List.copyOf(tokens);
    }

    Token peek() {
        return tokens.get(at);
    }

    Token peek(int ahead) {
        return tokens.get(Math.min(at + ahead, tokens.size() - 1));
    }

    Token next() {
        Token t = tokens.get(at);
        if (t.kind() != Kind.END) {
            at++;
        }
        return t;
    }

    boolean accept(String keywordOrSymbol) {
        Token t = peek();
        if (t.is(keywordOrSymbol) || (t.kind() == Kind.SYMBOL && t.text().equals(keywordOrSymbol))) {
            at++;
            return true;
        }
        return false;
    }

    void expect(String keywordOrSymbol) {
        if (!accept(keywordOrSymbol)) {
            throw error(peek().offset(), "expected " + keywordOrSymbol + " but found " + describe(peek()));
        }
    }

    /** An identifier (a word or a quoted identifier). */
    String identifier(String what) {
        Token t = peek();
        if (t.kind() != Kind.WORD && t.kind() != Kind.QUOTED) {
            throw error(t.offset(), "expected " + what + " but found " + describe(t));
        }
        return next().name();
    }

    /** A table name, {@code name} or {@code schema.name}. */
    String tableName() {
        String name = identifier("a table name");
        return accept(".") ? name + "." + identifier("a table name") : name;
    }

    String string(String what) {
        Token t = peek();
        if (t.kind() != Kind.STRING) {
            throw error(t.offset(), "expected " + what + " (a quoted string) but found " + describe(t));
        }
        return next().text();
    }

    double number(String what) {
        Token t = peek();
        if (t.kind() != Kind.NUMBER) {
            throw error(t.offset(), "expected " + what + " but found " + describe(t));
        }
        try {
            return Double.parseDouble(next().text());
        } catch (NumberFormatException e) {
            throw error(t.offset(), "'" + t.text() + "' is not a number");
        }
    }

    void expectEnd() {
        accept(";");
        if (peek().kind() != Kind.END) {
            throw error(peek().offset(), "unexpected " + describe(peek()) + " after the end of the statement");
        }
    }

    /** The statement's text from the current token on (the query of an INSERT), and its offset. */
    int restOffset() {
        return peek().offset();
    }

    String sql() {
        return sql;
    }

    private static String describe(Token t) {
        return t.kind() == Kind.END ? "the end of the statement" : "'" + t.text() + "'";
    }

    StarlingSqlException error(int offset, String message) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < offset && i < sql.length(); i++) {
            if (sql.charAt(i) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return new StarlingSqlException(message, line, column, null);
    }
}
