"""molnet_default_config: how each MoleculeNet dataset is downloaded, parsed, split, trained and scored.

Every key and field is Chainer Chemistry 0.7.1's, values included (also its oddities: 'hopv' names
its archive as its SMILES column, 'qm8' lists four PBE0 tasks twice). An entry has:

``dataset_type``  'one_file_csv', 'separate_csv' (``train_url``/``valid_url``/``test_url``) or 'joblib'
``loss``          the training loss, ``loss(y, t)``
``metrics``       name -> metric function ``f(y, t)`` or evaluator class (ROCAUCEvaluator, PRCAUCEvaluator)
``smiles_columns`` the SMILES column of the CSV file
``split``         the splitter MoleculeNet recommends, a key of ``split_method_dict``
``task_type``     'regression', 'classification' or 'mix'
``tasks``         the label columns
``url``           the canonical file on DeepChem's bucket (per subset for the PDBbind entries)
"""
from collections.abc import Iterator, Mapping

import kusari.functions as F
from kusari.chem.datasets.molnet.chembl_tasks import chembl_tasks
from kusari.chem.datasets.molnet.toxcast_tasks import toxcast_tasks
from kusari.chem.functions import mean_absolute_error, mean_squared_error
from kusari.chem.functions import r2_score as _r2_score

molnet_base = 'http://deepchem.io.s3-website-us-west-1.amazonaws.com/datasets/'
featurized_base = 'http://deepchem.io.s3-website-us-west-1.amazonaws.com/featurized_datasets/'


def mae(x, t):
    """Mean absolute error over the non-NaN entries of ``t``; ``x``, ``t``: ``(N, n_tasks)``."""
    return mean_absolute_error(x, t, ignore_nan=True)


def mse(x, t):
    """Mean squared error over the non-NaN entries of ``t``; ``x``, ``t``: ``(N, n_tasks)``."""
    return mean_squared_error(x, t, ignore_nan=True)


def rmse(x, t):
    """Root mean squared error over the non-NaN entries of ``t``; ``x``, ``t``: ``(N, n_tasks)``."""
    return F.sqrt(mse(x, t))


def r2_score(x, t):
    """Coefficient of determination over the non-NaN entries of ``t``; ``x``, ``t``: ``(N, n_tasks)``."""
    return _r2_score(x, t, ignore_nan=True)


class _Metrics(Mapping):
    """A read-only ``{name: metric}`` whose evaluator classes are imported on first access.

    The evaluators live in kusari.chem.training, which builds on models and trainers; resolving
    them late keeps ``import kusari.chem.datasets`` free of that whole stack (and of import cycles).
    """

    def __init__(self, **metrics):
        self._metrics = metrics

    def __getitem__(self, name):
        metric = self._metrics[name]
        if isinstance(metric, str):  # an evaluator's name
            from kusari.chem.training import extensions
            metric = getattr(extensions, metric)
        return metric

    def __iter__(self) -> Iterator[str]:
        return iter(self._metrics)

    def __len__(self) -> int:
        return len(self._metrics)

    def __repr__(self):
        return f"{{{', '.join(f'{k!r}: {v!r}' for k, v in self._metrics.items())}}}"


_ROC = _Metrics(binary_accuracy=F.binary_accuracy, roc_auc='ROCAUCEvaluator')
_PRC = _Metrics(binary_accuracy=F.binary_accuracy, prc_auc='PRCAUCEvaluator')


def _entry(tasks, url, task_type='regression', split='random', smiles='smiles', metrics=None,
           loss=None) -> dict:
    if loss is None:
        loss = F.sigmoid_cross_entropy if task_type == 'classification' else mse
    if isinstance(metrics, dict):  # each entry gets its own (mutable) dict, as upstream
        metrics = dict(metrics)
    entry = {"dataset_type": 'one_file_csv', "loss": loss, "metrics": metrics,
             "smiles_columns": smiles, "split": split, "task_type": task_type, "tasks": tasks,
             "url": url}
    if metrics is None:  # Chainer Chemistry's 'chembl' entry has no metrics
        del entry["metrics"]
    return entry


_RMSE = {'RMSE': rmse}
_MAE = {'MAE': mae}
_PDBBIND_SUBSETS = ["core", "full", "refined"]

molnet_default_config = {
    "bace_Class": _entry(["Class"], molnet_base + 'bace.csv', 'classification', smiles='mol',
                         metrics=_ROC),
    "bace_pIC50": _entry(["pIC50"], molnet_base + 'bace.csv', smiles='mol', metrics=_MAE),
    "bbbp": _entry(["p_np"], molnet_base + 'BBBP.csv', 'classification', 'scaffold', metrics=_ROC),
    "chembl": _entry(chembl_tasks, molnet_base + 'chembl_5thresh.csv.gz', 'mix'),
    "clearance": _entry(["target"], molnet_base + 'clearance.csv', smiles='smile', metrics=_RMSE),
    "clintox": _entry(["FDA_APPROVED", "CT_TOX"], molnet_base + 'clintox.csv.gz', 'classification',
                      metrics=_ROC),
    "delaney": _entry(['measured log solubility in mols per litre'],
                      molnet_base + 'delaney-processed.csv', metrics=_RMSE),
    "HIV": _entry(["HIV_active"], molnet_base + 'HIV.csv', 'classification', 'scaffold',
                  metrics=_ROC),
    "hopv": _entry(['HOMO', 'LUMO', 'electrochemical_gap', 'optical_gap', 'PCE', 'V_OC', 'J_SC',
                    'fill_factor'], molnet_base + 'hopv.tar.gz', smiles='hopv.csv', metrics=_RMSE),
    "kaggle": {
        "dataset_type": 'separate_csv',
        "loss": mse,
        "metrics": {'RMSE': rmse},
        "smiles_columns": 'smiles',
        "split": 'random',
        "task_type": 'regression',
        "tasks": ['3A4', 'CB1', 'DPP4', 'HIVINT', 'HIV_PROT', 'LOGD', 'METAB', 'NK1', 'OX1', 'OX2',
                  'PGP', 'PPB', 'RAT_F', 'TDI', 'THROMBIN'],
        "test_url": molnet_base + 'KAGGLE_test2_disguised_combined_full.csv.gz',
        "train_url": molnet_base + 'KAGGLE_training_disguised_combined_full.csv.gz',
        "valid_url": molnet_base + 'KAGGLE_test1_disguised_combined_full.csv.gz',
    },
    "lipo": _entry(['exp'], molnet_base + 'Lipophilicity.csv', metrics=_RMSE),
    "muv": _entry(['MUV-692', 'MUV-689', 'MUV-846', 'MUV-859', 'MUV-644', 'MUV-548', 'MUV-852',
                   'MUV-600', 'MUV-810', 'MUV-712', 'MUV-737', 'MUV-858', 'MUV-713', 'MUV-733',
                   'MUV-652', 'MUV-466', 'MUV-832'],
                  molnet_base + 'muv.csv.gz', 'classification', metrics=_PRC),
    "nci": _entry(['CCRF-CEM', 'HL-60(TB)', 'K-562', 'MOLT-4', 'RPMI-8226', 'SR', 'A549/ATCC',
                   'EKVX', 'HOP-62', 'HOP-92', 'NCI-H226', 'NCI-H23', 'NCI-H322M', 'NCI-H460',
                   'NCI-H522', 'COLO 205', 'HCC-2998', 'HCT-116', 'HCT-15', 'HT29', 'KM12',
                   'SW-620', 'SF-268', 'SF-295', 'SF-539', 'SNB-19', 'SNB-75', 'U251', 'LOX IMVI',
                   'MALME-3M', 'M14', 'MDA-MB-435', 'SK-MEL-2', 'SK-MEL-28', 'SK-MEL-5',
                   'UACC-257', 'UACC-62', 'IGR-OV1', 'OVCAR-3', 'OVCAR-4', 'OVCAR-5', 'OVCAR-8',
                   'NCI/ADR-RES', 'SK-OV-3', '786-0', 'A498', 'ACHN', 'CAKI-1', 'RXF 393', 'SN12C',
                   'TK-10', 'UO-31', 'PC-3', 'DU-145', 'MCF7', 'MDA-MB-231/ATCC', 'MDA-MB-468',
                   'HS 578T', 'BT-549', 'T-47D'],
                  molnet_base + 'nci_unique.csv', metrics=_RMSE),
    "pcba": _entry(['PCBA-' + assay for assay in [
        '1030', '1379', '1452', '1454', '1457', '1458', '1460', '1461', '1468', '1469', '1471',
        '1479', '1631', '1634', '1688', '1721', '2100', '2101', '2147', '2242', '2326', '2451',
        '2517', '2528', '2546', '2549', '2551', '2662', '2675', '2676', '411', '463254',
        '485281', '485290', '485294', '485297', '485313', '485314', '485341', '485349',
        '485353', '485360', '485364', '485367', '492947', '493208', '504327', '504332',
        '504333', '504339', '504444', '504466', '504467', '504706', '504842', '504845',
        '504847', '504891', '540276', '540317', '588342', '588453', '588456', '588579',
        '588590', '588591', '588795', '588855', '602179', '602233', '602310', '602313',
        '602332', '624170', '624171', '624173', '624202', '624246', '624287', '624288',
        '624291', '624296', '624297', '624417', '651635', '651644', '651768', '651965',
        '652025', '652104', '652105', '652106', '686970', '686978', '686979', '720504',
        '720532', '720542', '720551', '720553', '720579', '720580', '720707', '720708',
        '720709', '720711', '743255', '743266', '875', '881', '883', '884', '885', '887', '891',
        '899', '902', '903', '904', '912', '914', '915', '924', '925', '926', '927', '938',
        '995',
    ]], molnet_base + 'pcba.csv.gz', 'classification', metrics=_PRC),
    "pdbbind_smiles": {
        "subset": _PDBBIND_SUBSETS,
        "dataset_type": 'one_file_csv',
        "url": {subset: molnet_base + f'{subset}_smiles_labels.csv' for subset in _PDBBIND_SUBSETS},
        "smiles_columns": 'smiles',
        "metrics": {'R2': r2_score},
        "split": 'time',
        "task_type": 'regression',
        "tasks": ["-logKd/Ki"],
    },
    "pdbbind_grid": {
        "pdbbind_subset": _PDBBIND_SUBSETS,
        "dataset_type": 'joblib',
        "url": {subset: featurized_base + f'{subset}_grid.tar.gz' for subset in _PDBBIND_SUBSETS},
        "smiles_columns": '',
        "metrics": {'R2': r2_score},
        "split": 'time',
        "task_type": 'regression',
        "tasks": ["-logKd/Ki"],
    },
    "ppb": _entry(["exp"], molnet_base + 'PPB.csv', metrics=_RMSE),
    "qm7": _entry(["u0_atom"], molnet_base + 'qm7.csv', split='stratified', metrics=_MAE),
    "qm8": _entry(["E1-CC2", "E2-CC2", "f1-CC2", "f2-CC2", "E1-PBE0", "E2-PBE0", "f1-PBE0",
                   "f2-PBE0", "E1-PBE0", "E2-PBE0", "f1-PBE0", "f2-PBE0", "E1-CAM", "E2-CAM",
                   "f1-CAM", "f2-CAM"], molnet_base + 'qm8.csv', metrics=_MAE),
    "qm9": _entry(["mu", "alpha", "homo", "lumo", "gap", "r2", "zpve", "cv", "u0", "u298", "h298",
                   "g298"], molnet_base + 'qm9.csv', metrics=_MAE),
    "SAMPL": _entry(["expt"], molnet_base + 'SAMPL.csv', metrics=_RMSE),
    "sider": _entry(['Hepatobiliary disorders', 'Metabolism and nutrition disorders',
                     'Product issues', 'Eye disorders', 'Investigations',
                     'Musculoskeletal and connective tissue disorders',
                     'Gastrointestinal disorders', 'Social circumstances',
                     'Immune system disorders', 'Reproductive system and breast disorders',
                     'Neoplasms benign, malignant and unspecified (incl cysts and polyps)',
                     'General disorders and administration site conditions',
                     'Endocrine disorders', 'Surgical and medical procedures',
                     'Vascular disorders', 'Blood and lymphatic system disorders',
                     'Skin and subcutaneous tissue disorders',
                     'Congenital, familial and genetic disorders', 'Infections and infestations',
                     'Respiratory, thoracic and mediastinal disorders', 'Psychiatric disorders',
                     'Renal and urinary disorders',
                     'Pregnancy, puerperium and perinatal conditions',
                     'Ear and labyrinth disorders', 'Cardiac disorders',
                     'Nervous system disorders',
                     'Injury, poisoning and procedural complications'],
                    molnet_base + 'sider.csv.gz', 'classification', metrics=_ROC),
    "tox21": _entry(['NR-AR', 'NR-AR-LBD', 'NR-AhR', 'NR-Aromatase', 'NR-ER', 'NR-ER-LBD',
                     'NR-PPAR-gamma', 'SR-ARE', 'SR-ATAD5', 'SR-HSE', 'SR-MMP', 'SR-p53'],
                    molnet_base + 'tox21.csv.gz', 'classification', metrics=_ROC),
    "toxcast": _entry(toxcast_tasks, molnet_base + 'toxcast_data.csv.gz', 'classification',
                      metrics=_ROC),
}
