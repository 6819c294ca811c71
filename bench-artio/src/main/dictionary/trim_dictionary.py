"""Write the FIX dictionaries Artio's codecs are generated from (FIX42-bench.xml, FIX44-bench.xml).

An Artio user generates codecs from the dictionary of the messages they trade; the benchmark trades
the session messages, NewOrderSingle and ExecutionReport. This keeps those messages of QuickFIX/J's
standard FIX42.xml / FIX44.xml (the dictionaries every other product here validates with), the
components they use and the fields they name, so the generated code compiles in seconds.

    python3 trim_dictionary.py FIX42.xml FIX42-bench.xml
"""

import sys
import xml.etree.ElementTree as ET

KEPT_MESSAGES = {"D", "8"}


def trim(source: str, target: str) -> None:
    tree = ET.parse(source)
    root = tree.getroot()
    messages, components = root.find("messages"), root.find("components")
    for message in list(messages):
        if not (message.get("msgcat") == "admin" or message.get("msgtype") in KEPT_MESSAGES):
            messages.remove(message)
    used: set[str] = set()

    def walk(element: ET.Element) -> None:
        for child in element.iter():
            if child.tag == "component" and child.get("name") not in used:
                used.add(child.get("name"))
                for definition in components if components is not None else []:
                    if definition.get("name") == child.get("name"):
                        walk(definition)

    for part in ("header", "trailer", "messages"):
        walk(root.find(part))
    for definition in list(components if components is not None else []):
        if definition.get("name") not in used:
            components.remove(definition)
    named = {f.get("name") for part in ("header", "trailer", "messages", "components") if root.find(part) is not None
             for f in root.find(part).iter() if f.tag in ("field", "group")}
    fields = root.find("fields")
    for field in list(fields):
        if field.get("name") not in named:
            fields.remove(field)
    tree.write(target, encoding="UTF-8", xml_declaration=True)


if __name__ == "__main__":
    trim(sys.argv[1], sys.argv[2])
