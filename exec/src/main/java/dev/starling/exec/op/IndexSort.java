package dev.starling.exec.op;

/** A stable merge sort of row indexes, with no boxing. */
final class IndexSort {
    @FunctionalInterface
    interface Comparator {
        int compare(int a, int b);
    }

    private IndexSort() { }

    static void sort(int[] a, Comparator c) {
        int[] tmp = new int[a.length];
        sort(a, tmp, 0, a.length, c);
    }

    private static void sort(int[] a, int[] tmp, int from, int to, Comparator c) {
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= from && c.compare(a[j], x) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        sort(a, tmp, from, mid, c);
        sort(a, tmp, mid, to, c);
        if (c.compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            if (j >= to || (i < mid && c.compare(tmp[i], tmp[j]) <= 0)) {
                a[k] = tmp[i++];
            } else {
                a[k] = tmp[j++];
            }
        }
    }
}
