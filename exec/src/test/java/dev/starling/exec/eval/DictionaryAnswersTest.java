package dev.starling.exec.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.starling.exec.expr.Call;
import dev.starling.exec.expr.ColumnRef;
import dev.starling.exec.expr.Expr;
import dev.starling.exec.expr.Literal;
import dev.starling.exec.vector.StrDict;
import dev.starling.storage.DataType;
import dev.starling.storage.Dictionary;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A string predicate's answers per dictionary entry are the CPU evaluator's, a NULL string's last;
 * a group key's ranks number its distinct values, NULL one of them.
 */
class DictionaryAnswersTest {
    private static final byte F = DictionaryAnswers.FALSE;
    private static final byte T = DictionaryAnswers.TRUE;
    private static final byte N = DictionaryAnswers.NULL;
    private static final Expr STRING = new ColumnRef(0, DataType.VARCHAR, true);
    private static final StrDict DICT = StrDict.of(Dictionary.of(new String[] {
        "special requests", "a special order of requests", "plain", ""}));

    private static Expr call(Call.Op op, DataType type, Expr... args) {
        return new Call(op, List.of(args), type, true);
    }

    private static Expr text(String s) {
        return new Literal(s, DataType.VARCHAR);
    }

    @Test
    void notLikeIsFalseOrTrueByEntryAndNullForANullString() {
        Expr notLike = call(Call.Op.NOT, DataType.BOOLEAN, call(Call.Op.LIKE, DataType.BOOLEAN, STRING, text("%special%requests%")));
        assertArrayEquals(new byte[] {F, F, T, T, N}, DictionaryAnswers.of(notLike, DataType.VARCHAR, DICT));
    }

    @Test
    void isNullIsTrueOnlyForANullString() {
        Expr isNull = call(Call.Op.IS_NULL, DataType.BOOLEAN, STRING);
        assertArrayEquals(new byte[] {F, F, F, F, T}, DictionaryAnswers.of(isNull, DataType.VARCHAR, DICT));
    }

    @Test
    void answersAreKeptPerDictionaryAndPredicate() {
        Expr like = call(Call.Op.LIKE, DataType.BOOLEAN, STRING, text("%requests"));
        byte[] first = DictionaryAnswers.of(like, DataType.VARCHAR, DICT);
        assertSame(first, DictionaryAnswers.of(like, DataType.VARCHAR, DICT));
        StrDict other = StrDict.of(Dictionary.of(new String[] {"requests"}));
        assertArrayEquals(new byte[] {T, N}, DictionaryAnswers.of(like, DataType.VARCHAR, other));
        Expr otherPattern = call(Call.Op.LIKE, DataType.BOOLEAN, STRING, text("%order%"));
        assertArrayEquals(new byte[] {F, T, F, F, N}, DictionaryAnswers.of(otherPattern, DataType.VARCHAR, DICT));
    }

    @Test
    void aDictionaryOfManySlicesIsAnsweredWhole() {
        String[] values = new String[200_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = (i % 7 == 0 ? "x" : "y") + i;
        }
        Expr startsWithX = call(Call.Op.LIKE, DataType.BOOLEAN, STRING, text("x%"));
        byte[] answers = DictionaryAnswers.of(startsWithX, DataType.VARCHAR, StrDict.of(Dictionary.of(values)));
        assertEquals(values.length + 1, answers.length);
        for (int i = 0; i < values.length; i++) {
            assertEquals(i % 7 == 0 ? T : F, answers[i], values[i]);
        }
        assertEquals(N, answers[values.length]);
    }

    @Test
    void aGroupKeyRanksItsDistinctValuesInOrderOfFirstEntry() {
        String[] values = new String[100_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = (char) ('a' + i % 3) + "-" + i;
        }
        Expr firstTwo = call(Call.Op.SUBSTRING, DataType.VARCHAR, STRING, new Literal(1L, DataType.INTEGER),
                new Literal(2L, DataType.INTEGER));
        DictionaryAnswers.Ranks ranks = DictionaryAnswers.ranks(firstTwo, DataType.VARCHAR, StrDict.of(Dictionary.of(values)));
        assertEquals(values.length + 1, ranks.rank().length);
        for (int i = 0; i < values.length; i++) {
            assertEquals(i % 3, ranks.rank()[i], values[i]);
        }
        assertEquals(3, ranks.rank()[values.length], "a NULL string has a value of its own, NULL");
        assertArrayEquals(new int[] {0, 1, 2, values.length}, ranks.firstEntry());
    }
}
