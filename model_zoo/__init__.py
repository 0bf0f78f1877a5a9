"""kusari.model_zoo: the registry of pretrained weights, loaded by name and verified by checksum."""
