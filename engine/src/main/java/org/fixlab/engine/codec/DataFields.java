package org.fixlab.engine.codec;

/**
 * The FIX 4.2 and 4.4 data fields (type data: any bytes, SOH included) and the length field that announces each
 * one's size. The pairs are fixed by the specification, so the decoder needs no dictionary to split them.
 */
final class DataFields
{
    static final int NONE = -1;
    /** Every tag of a pair is from FIRST to below LIMIT. */
    static final int FIRST = 89;
    static final int LIMIT = 1024;
    /** Length tag, then data tag. */
    private static final int[][] LENGTH_THEN_DATA = {
        {93, 89},   // SignatureLength, Signature
        {90, 91},   // SecureDataLen, SecureData
        {95, 96},   // RawDataLength, RawData
        {212, 213}, // XmlDataLen, XmlData
        {348, 349}, // EncodedIssuerLen, EncodedIssuer
        {350, 351}, // EncodedSecurityDescLen, EncodedSecurityDesc
        {352, 353}, // EncodedListExecInstLen, EncodedListExecInst
        {354, 355}, // EncodedTextLen, EncodedText
        {356, 357}, // EncodedSubjectLen, EncodedSubject
        {358, 359}, // EncodedHeadlineLen, EncodedHeadline
        {360, 361}, // EncodedAllocTextLen, EncodedAllocText
        {362, 363}, // EncodedUnderlyingIssuerLen, EncodedUnderlyingIssuer
        {364, 365}, // EncodedUnderlyingSecurityDescLen, EncodedUnderlyingSecurityDesc
        {445, 446}, // EncodedListStatusTextLen, EncodedListStatusText
        {618, 619}, // EncodedLegIssuerLen, EncodedLegIssuer
        {621, 622}, // EncodedLegSecurityDescLen, EncodedLegSecurityDesc
    };
    static final int PAIRS = LENGTH_THEN_DATA.length;
    /** For each tag of a pair (length or data), the pair's index; NONE for every other tag. */
    static final int[] PAIR_OF_TAG = new int[LIMIT];

    static
    {
        java.util.Arrays.fill(PAIR_OF_TAG, NONE);
        for (int pair = 0; pair < PAIRS; pair++)
        {
            PAIR_OF_TAG[LENGTH_THEN_DATA[pair][0]] = pair;
            PAIR_OF_TAG[LENGTH_THEN_DATA[pair][1]] = pair;
        }
    }

    /**
     * The pair a tag belongs to, or NONE. The whole standard header and most body fields are below FIRST: for them
     * one comparison, without a load from the table.
     */
    static int pairOf(final int tag)
    {
        return tag >= FIRST && tag < LIMIT ? PAIR_OF_TAG[tag] : NONE;
    }

    static boolean isDataTag(final int tag, final int pair)
    {
        return LENGTH_THEN_DATA[pair][1] == tag;
    }

    private DataFields()
    {
    }
}
