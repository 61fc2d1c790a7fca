def word_count(text: str, unique: bool = False) -> dict:
    """Count the words of a text.

    :param text: The text to count.
    :param unique: Count each different word once.
    """
    words = text.lower().split()
    return {"words": len(set(words)) if unique else len(words)}
