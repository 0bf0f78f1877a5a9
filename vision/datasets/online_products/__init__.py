"""Stanford Online Products: metric learning."""
